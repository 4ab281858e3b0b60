# The project stands alone: a clone has everything a contributor reads. No tracked file sends the
# reader to the `shared` folder beside the checkout (the design document and rule texts the
# project was made from, which a clone does not have); every "DESIGN section N" that a comment
# or test cites is section N of docs/spec.md; docs/rules.md has every game kind the core knows,
# each of its options, and the rule texts ("seed 000" ...) that the code comments name.
import os
import re
import subprocess

from scoreboard.core import KINDS, traits

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NEEDLE = '..' + '/shared'      # (spelled so that this file does not hold it)


def allowed(path):
    return False      # no file of the project sends its reader outside it


def tracked():
    """The repository's files (git's list; the tree itself where there is no git)."""
    r = subprocess.run(['git', '-C', ROOT, 'ls-files', '-z'], capture_output=True)
    if r.returncode == 0 and r.stdout:
        return [p for p in r.stdout.decode().split('\0') if p]
    out = []
    for d, dirs, files in os.walk(ROOT):
        dirs[:] = [x for x in dirs if x not in ('.git', '.venv', 'build', 'node_modules')]
        out += [os.path.relpath(os.path.join(d, f), ROOT) for f in files]
    return out


def text(path):
    try:
        with open(os.path.join(ROOT, path), encoding='utf-8') as f:
            return f.read()
    except (UnicodeDecodeError, OSError):   # a picture, a link to nowhere
        return ''


def test_no_file_refers_to_shared():
    bad = [p for p in tracked() if not allowed(p) and NEEDLE in text(p)]
    assert not bad, 'files that send the reader to %s: %s' % (NEEDLE, ', '.join(bad))


def spec_sections():
    return {int(m) for m in re.findall(r'^## (\d+)\. ', text('docs/spec.md'), re.M)}


def test_design_sections_cited_are_in_the_spec():
    have = spec_sections()
    assert have == set(range(1, 14)), sorted(have)
    cited = {}
    for p in tracked():
        for m in re.finditer(r'DESIGN(?:\.md)?,? sections? (\d+)((?:(?:, | and )\d+)*)', text(p)):
            for n in re.findall(r'\d+', m.group(0)):
                cited.setdefault(int(n), p)
    missing = {n: p for n, p in cited.items() if n not in have}
    assert cited and not missing, missing


def rules_sections():
    """{kind: the text of its section} from docs/rules.md's '## Name (`kind`, ...)' headings."""
    out = {}
    parts = re.split(r'^## ', text('docs/rules.md'), flags=re.M)
    for part in parts[1:]:
        m = re.match(r'[^\n(]*\(`(\w+)`', part)
        if m:
            out[m.group(1)] = part
    return out


def test_rules_name_every_game_and_option():
    sections = rules_sections()
    assert sorted(sections) == sorted(KINDS), sorted(sections)
    for kind in KINDS:
        for name, _, _ in traits(kind).OPTIONS:
            assert '`%s`' % name in sections[kind], (kind, name)


def test_rules_name_the_seed_texts_the_code_cites():
    rules = text('docs/rules.md')
    cited = set()
    for p in tracked():
        if p.startswith(('firmware/', 'host_tests/', 'tools/')):
            for m in re.finditer(r'\bseeds? (\d{3}(?:(?:, | and |/| or )\d{3})*)\b', text(p)):
                cited.update(re.findall(r'\d{3}', m.group(1)))
    assert cited, 'no seed cited anywhere: the test reads the wrong files'
    for n in sorted(cited):
        assert re.search(r'^\| %s \|' % n, rules, re.M), 'seed %s is not described' % n
