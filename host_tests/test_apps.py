# runs-on: micropython
# The two app folders and the pointer (firmware/apps.py, DESIGN section 12), on a folder that
# stands for the flash: the pointer read whole or not at all (a torn app.json.new, a FAT-style
# rename that leaves only app.json.new), a folder that does not match its manifest never
# switched to, a version on trial rolled back after a watchdog reset or too many boots (never
# after the first boot, whose reset started it), main.py's fall back when the new version does
# not load, and the firmware's side (scoreboard/trial.py): three faults before 60 s roll back
# and reset, `update undone` is said once and logged, 60 s of running commit the trial.
import json
import os
import sys

import app_probe
import apps
import machine


def flash(tag):
    d = app_probe.flash_dir('apps-' + tag)
    _clear(d)
    return d


def _clear(d):
    for n in os.listdir(d):
        p = d + '/' + n
        if os.stat(p)[0] & 0x4000:
            apps.rmtree(p)
        else:
            os.remove(p)


def put(root, name, files, version):
    """A folder with these files ({path: text}) and its manifest."""
    top = apps.folder(name, root)
    digests = {}
    for rel, text in files.items():
        apps.makedirs(top + '/' + rel)
        with open(top + '/' + rel, 'w') as f:
            f.write(text)
        digests[rel] = apps.sha256(top + '/' + rel)
    with open(top + '/' + apps.MANIFEST, 'w') as f:
        f.write(json.dumps({'version': version, 'files': digests}))


def two_versions(tag):
    root = flash(tag)
    put(root, 'a', {'scoreboard/x.py': 'V = 1\n'}, '1')
    apps.switch('a', root)
    put(root, 'b', {'scoreboard/x.py': 'V = 2\n'}, '2')
    apps.switch('b', root)
    return root


def test_the_pointer_is_read_whole_or_not_at_all():
    root = flash('ptr')
    assert apps.read(root) is None and apps.inactive(root) == 'a'
    put(root, 'a', {'m.py': 'x'}, '1')
    apps.switch('a', root)
    assert apps.read(root)['run'] == 'a' and apps.inactive(root) == 'b'
    assert not apps.read(root)['trial']         # nothing to go back to: no trial
    # a cut while the next pointer was written: a torn app.json.new is ignored
    with open(root + '/app.json.new', 'w') as f:
        f.write('{"run": "b", "prev": "a", "tri')
    assert apps.read(root)['run'] == 'a'
    # a cut between a FAT rename's remove and rename: the whole app.json.new is used
    os.remove(root + '/app.json')
    with open(root + '/app.json.new', 'w') as f:
        f.write(json.dumps({'run': 'a', 'prev': None, 'trial': False}))
    assert apps.read(root)['run'] == 'a'
    with open(root + '/app.json', 'w') as f:
        f.write('{"run": "z"}')                  # not one of ours: the other is taken
    assert apps.read(root)['run'] == 'a'


def test_a_folder_that_does_not_match_its_manifest_is_never_switched_to():
    root = two_versions('verify')
    put(root, 'a', {'scoreboard/x.py': 'V = 3\n'}, '3')
    with open(apps.folder('a', root) + '/scoreboard/x.py', 'a') as f:
        f.write('# tampered\n')
    assert apps.verify('a', root) == 'scoreboard/x.py'
    refused = False
    try:
        apps.switch('a', root)
    except ValueError:
        refused = True
    assert refused and apps.read(root)['run'] == 'b'
    os.remove(apps.folder('a', root) + '/' + apps.MANIFEST)
    assert apps.verify('a', root) == 'manifest'


def test_enter_puts_the_running_folder_first_and_only_it():
    root = two_versions('enter')
    before = list(sys.path)
    try:
        apps.enter(root, cause=1)
        assert sys.path[0] == apps.folder('b', root)
        assert sys.path[1] == apps.folder('b', root) + '/lib'
        assert apps.folder('a', root) not in sys.path
    finally:
        sys.path[:] = before


def test_a_watchdog_reset_on_trial_goes_back_but_not_the_first_boot():
    root = two_versions('wdt')
    before = list(sys.path)
    try:
        ptr = apps.enter(root, cause=machine.WDT_RESET)     # the reset that started it
        assert ptr['run'] == 'b' and ptr['trial'] and ptr['boots'] == 1
        ptr = apps.enter(root, cause=machine.PWRON_RESET)   # a power cut: not the version's
        assert ptr['run'] == 'b' and ptr['boots'] == 2
        ptr = apps.enter(root, cause=machine.WDT_RESET)     # the watchdog: back
        assert ptr['run'] == 'a' and not ptr['trial'] and ptr['prev'] == 'b'
        assert '2' in ptr['undone'] and 'watchdog' in ptr['undone']
        assert sys.path[0] == apps.folder('a', root)
    finally:
        sys.path[:] = before


def test_a_trial_that_keeps_booting_gives_up():
    root = two_versions('boots')
    before = list(sys.path)
    try:
        for _ in range(apps.TRIAL_BOOTS):
            assert apps.enter(root, cause=1)['run'] == 'b'
        assert apps.enter(root, cause=1)['run'] == 'a'
    finally:
        sys.path[:] = before


def test_no_rollback_to_a_previous_version_that_is_gone():
    root = two_versions('noprev')
    os.remove(apps.folder('a', root) + '/scoreboard/x.py')
    ptr = apps.undo(apps.read(root), root, 'test')
    assert ptr['run'] == 'b' and not ptr['trial']       # committed: it is all there is


def test_a_version_on_trial_that_does_not_load_goes_back_and_resets():
    root = two_versions('broken')
    reset = False
    try:
        apps.broken(ImportError('no module named scoreboard.app'), root)
    except machine.Reset:
        reset = True
    assert reset and apps.read(root)['run'] == 'a'
    assert 'does not load' in apps.read(root)['undone']
    apps.broken(ImportError('again'), root)     # not on trial now: nothing more happens
    assert apps.read(root)['run'] == 'a'


def test_the_firmware_counts_three_faults_then_goes_back_and_says_so():
    from scoreboard.faultlog import FaultLog
    from scoreboard.trial import Trial
    root = two_versions('faults')
    t = Trial(root, 1000)
    assert t.on and t.note is None
    t.fault(2000)
    t.fault(3000)
    assert apps.read(root)['run'] == 'b'
    reset = False
    try:
        t.fault(4000)
    except machine.Reset:
        reset = True
    assert reset and apps.read(root)['run'] == 'a'
    # the next boot (the old version) says it, on the display and in the fault log, once
    t2 = Trial(root, 0)
    assert t2.note == 'update undone' and not t2.on
    assert 'update undone: 2 (3 faults)' in FaultLog(root).read()
    assert Trial(root, 0).note is None


def test_sixty_seconds_of_running_end_the_trial():
    from scoreboard.trial import Trial
    root = two_versions('commit')
    t = Trial(root, 0)
    assert t.on and not t.due(59999) and t.due(60000)
    t.commit()
    assert not apps.read(root)['trial']
    t.fault(61000)                  # after the trial: a fault is only a fault
    assert apps.read(root)['run'] == 'b'


def test_on_the_rp2040_machine_reset_is_not_taken_for_the_watchdog():
    class Board:
        MCU = 'rp2'
    sys.modules['board'] = Board
    try:
        machine.set_reset_cause(machine.WDT_RESET)          # the watchdog timed out
        assert apps._reset_cause() == machine.WDT_RESET
        machine.set_reset_cause(machine.WDT_RESET, scratch4=0)   # machine.reset() on rp2
        assert apps._reset_cause() is None
        root = two_versions('rp2reset')
        before = list(sys.path)
        try:
            apps.enter(root)                                # the deploy's reset
            assert apps.enter(root)['run'] == 'b'           # mpremote reset: still on trial
            machine.set_reset_cause(machine.WDT_RESET)
            assert apps.enter(root)['run'] == 'a'           # the watchdog: back
        finally:
            sys.path[:] = before
    finally:
        sys.modules.pop('board', None)
        machine.reset_all()
