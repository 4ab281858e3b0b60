# runs-on: micropython
# The phone page as the browser gets it over HTTP (GET / and GET /remote): byte for byte the
# page's texts with the game table the core's traits give, spliced in where the script starts.
import json

import net_harness as nh


def expected_page():
    from scoreboard.net import page as P
    games = 'const GAMES=' + json.dumps(P.games()) + ';\n'
    return (P.HEAD + P.BODY + games + P.SCRIPT).encode()


def test_the_served_page_is_the_page_with_the_games_spliced_in():
    async def check(h):
        want = expected_page()
        for path in ('/', '/remote'):
            r = await h.get(path)
            assert r.status == 200, (path, r)
            assert r.headers['content-type'] == 'text/html; charset=utf-8'
            assert r.body == want, (path, len(r.body), len(want))
    nh.run(check, tag='page')
