// The TV page's tournament panel (DESIGN section 13): what plays where, what is next, and the
// standings (round robin) or the bracket (single elimination) of the tournament under way, or of
// the last one when none is. Its own component: the TV page loads it with one <script> line, and
// it adds its own section (in the tables' column, under the tables, where a TV has room; else a
// row across the page) and its own style. It reads
// GET /api/tournaments and /api/tournaments/<id> every few seconds; with no tournament it shows
// nothing.
(function () {
  'use strict';
  var EVERY = 3000;
  var css = [
    '.tny { background: #1b1b1b; border-radius: 1vw; padding: 1vw 1.4vw; margin-top: 1vw;',
    '  display: grid; grid-template-columns: 1fr 1.5fr; gap: 1.5vw; color: #eee; }',
    'main > .tny { grid-column: 1 / -1; margin-top: 0; }',
    '.tny[hidden] { display: none; }',
    '.tny h2 { margin: 0 0 .5vw; font-size: 2vw; }',
    '.tny h3 { margin: .6vw 0 .3vw; font-size: 1.5vw; color: #aaa; font-weight: normal; }',
    '.tny .now div, .tny .next div { font-size: 1.7vw; margin: .2vw 0; }',
    '.tny .tbl { display: inline-block; min-width: 7vw; color: #aaa; }',
    '.tny .off { opacity: .5; }',
    '.tny .red { color: #ff5a4f; } .tny .blue { color: #59a8ff; }',
    '.tny table { border-collapse: collapse; font-size: 1.6vw; width: 100%; }',
    '.tny td, .tny th { padding: .15vw .5vw; text-align: left; }',
    '.tny th { color: #aaa; font-weight: normal; }',
    '.tny .n { text-align: right; font-variant-numeric: tabular-nums; }',
    '.tny tr.out td { opacity: .45; text-decoration: line-through; }',
    '.tny .bracket { display: flex; gap: 1.2vw; align-items: stretch; }',
    '.tny .round { flex: 1; display: flex; flex-direction: column; }',
    '.tny .round h3 { text-align: center; }',
    '.tny .ms { flex: 1; display: flex; flex-direction: column; justify-content: space-around;',
    '  gap: .5vw; }',
    '.tny .m { background: #262626; border-radius: .5vw; padding: .3vw .6vw; font-size: 1.5vw; }',
    '.tny .m div { display: flex; justify-content: space-between; gap: .5vw; }',
    '.tny .m .w { font-weight: bold; } .tny .m .l { opacity: .5; }',
    '.tny .m.playing { outline: .25vw solid #59a8ff; }',
    '.tny .champ { font-size: 2.2vw; color: #ffd54f; margin-top: .6vw; }',
    '.tny .none { color: #888; font-size: 1.5vw; }'
  ].join('\n');

  function esc(s) {
    return String(s == null ? '' : s).replace(/[&<>"']/g, function (c) {
      return {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}[c];
    });
  }
  function vs(m) {
    return '<span class="red">' + esc(m.red || '?') + '</span> v <span class="blue">' +
      esc(m.blue || '?') + '</span>';
  }
  function side(m, s) {
    var name = m[s] || (m.bye ? 'bye' : '…');
    var cls = m.state === 'done' ? (m.winner === s ? 'w' : 'l') : '';
    var pts = m.state === 'done' && m.score && !m.bye ? (m.forfeit ? 'w/o' : m.score[s]) : '';
    return '<div class="' + cls + '"><span>' + esc(name) + '</span><span>' + pts + '</span></div>';
  }

  function render(el, t) {
    var left = '<h2>' + esc(t.name) + '</h2>';
    left += '<h3>Playing now</h3><div class="now">';
    if (t.playing.length) {
      t.playing.forEach(function (m) {
        left += '<div class="' + (m.table_online === false ? 'off' : '') + '">' +
          '<span class="tbl">Table ' + esc(m.table) + '</span>' + vs(m) +
          (m.table_online === false ? ' (table offline)' : '') + '</div>';
      });
    } else {
      left += '<div class="none">' + (t.state === 'done' ? 'All played.' :
        'Waiting for a free table.') + '</div>';
    }
    left += '</div><h3>Next</h3><div class="next">';
    var next = t.next.length ? t.next : t.matches.filter(function (m) {
      return m.state === 'waiting';
    });
    if (next.length) {
      next.slice(0, 4).forEach(function (m) {
        left += '<div>' + vs(m) + '</div>';
      });
    } else {
      left += '<div class="none">Nothing waiting.</div>';
    }
    left += '</div>';
    if (t.champion) left += '<div class="champ">' + esc(t.champion) + ' wins the night</div>';
    var right = '';
    if (t.format === 'roundrobin' && t.standings) {
      right = '<h2>Standings</h2><table><tr><th></th><th></th><th class="n">won</th>' +
        '<th class="n">lost</th><th class="n">+/-</th></tr>';
      t.standings.forEach(function (r) {
        right += '<tr class="' + (r.withdrawn ? 'out' : '') + '"><td class="n">' + r.place +
          '</td><td>' + esc(r.name) + '</td><td class="n">' + r.won + '</td><td class="n">' +
          r.lost + '</td><td class="n">' + (r['for'] - r.against) + '</td></tr>';
      });
      right += '</table>';
    } else {
      right = '<h2>Bracket</h2><div class="bracket">';
      var n = t.rounds.length;
      t.rounds.forEach(function (r, i) {
        var label = i === n - 1 ? 'Final' : i === n - 2 ? 'Semi-finals' : 'Round ' + r.round;
        right += '<div class="round"><h3>' + label + '</h3><div class="ms">';
        r.matches.forEach(function (m) {
          right += '<div class="m ' + m.state + '">' + side(m, 'red') + side(m, 'blue') +
            '</div>';
        });
        right += '</div></div>';
      });
      right += '</div>';
    }
    el.innerHTML = '<div>' + left + '</div><div>' + right + '</div>';
  }

  function get(path) {
    return fetch(path, {cache: 'no-store'}).then(function (r) {
      if (!r.ok) throw new Error(r.status);
      return r.json();
    });
  }

  function start() {
    var style = document.createElement('style');
    style.textContent = css;
    document.head.appendChild(style);
    var el = document.createElement('section');
    el.className = 'tny';
    el.id = 'tournament';
    el.hidden = true;
    var tables = document.getElementById('tables');
    (tables && tables.parentNode || document.querySelector('main') || document.body)
      .appendChild(el);
    function tick() {
      get('/api/tournaments').then(function (d) {
        var list = d.tournaments.filter(function (t) { return t.state !== 'signup'; });
        var pick = list.filter(function (t) { return t.state === 'running'; })[0] || list[0];
        if (!pick) { el.hidden = true; return null; }
        return get('/api/tournaments/' + pick.id).then(function (t) {
          render(el, t);
          el.hidden = false;
        });
      }).catch(function () { /* the service restarting: the last picture stays */ })
        .then(function () { setTimeout(tick, EVERY); });
    }
    tick();
  }
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', start);
  } else {
    start();
  }
})();
