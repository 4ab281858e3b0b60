# runs-on: micropython
# Bring-up (DESIGN section 4): at power-up every display lights every segment and pixel for 1 s
# (display.lamp(), contract 3), while the loop runs on: buttons are read and the game goes on;
# the first show after it redraws. On a board whose displays have no lamp(), nothing waits.
import app_probe  # (the virtual machine on the path)
import machine
from scoreboard.app import App


class Display(app_probe.QuietDisplay):
    def __init__(self, lamp=True):
        self.calls = []
        if lamp:
            self.lamp = self._lamp

    def _lamp(self):
        self.calls.append('lamp')

    def show(self, view, phase):
        if not self.calls or self.calls[-1] != view['screen']:
            self.calls.append(view['screen'])


def test_lamp_test_for_one_second_without_blocking_the_loop():
    machine.reset_all()
    a, b, plain = Display(), Display(), Display(lamp=False)
    app = App(app_probe.StubBoard([a, b, plain]), app_probe.NoStore(), 0)
    assert a.calls == ['lamp'] and b.calls == ['lamp']
    assert plain.calls == []                 # no lamp of its own: it waits with the others
    now = 0
    machine.drive(42, 0)                     # OK tapped during the lamp test: it counts
    while now < 100:
        now += 5
        app.step(now)
    machine.drive(42, None)
    while now < 995:
        now += 5
        app.step(now)
    assert app.ctl.view['screen'] == 'play'
    assert a.calls == ['lamp'] and b.calls == ['lamp']
    while now < 1010:
        now += 5
        app.step(now)
    assert a.calls == ['lamp', 'play'] and b.calls == ['lamp', 'play']
    assert plain.calls == ['play']


def test_no_lamp_anywhere_draws_at_once():
    machine.reset_all()
    plain = Display(lamp=False)
    App(app_probe.StubBoard([plain]), app_probe.NoStore(), 0)
    assert plain.calls == ['setup']
