# An update over Wi-Fi cut by a power failure at each of its writes (DESIGN section 12: "cut the
# power at any byte of any of them: the board boots the old version or the new one, never a
# mix"). The simulated Wi-Fi board takes the signed package of test_update_ota.py as
# POST /api/update; at the k-th write to the flash (a file opened for writing, a rename, a
# removal, a folder made or removed) the power fails: that write and every one after it never
# happen. Then the board reads its pointer as main.py does (apps.read): the folder it runs matches
# its manifest, is version 1 or version 2, the loader files at the top are each whole, and the
# saved game is untouched. Version 2 changes main.py too, so that writes come after the switch
# (the loader files are placed once the pointer says version 2). In `make test` every 40th
# write and the last ones (the switch and the loader's); every write in `make fuzz`
# (SWEEP=long).
import json
import os
import shutil

import net_harness as nh
import sweep
import package
from test_update_ota import body, firmware_copy, install, post_update

import apps
from scoreboard.net import update

STRIDE = 40
TAIL = 8
SAVE = '{"saved": "a game in play"}'


class PowerCut(Exception):
    """The power failed: raised at the cut write and at every write after it."""


class Flash:
    """The writes of update.py and apps.py to the flash, counted; from the k-th on, refused
    as the power is gone (k None: only counted)."""

    def __init__(self, cut=None):
        self.cut = cut
        self.n = 0

    def write(self):
        self.n += 1
        if self.cut is not None and self.n >= self.cut:
            raise PowerCut('power cut at write %d' % self.n)

    def open(self, path, mode='r', *a, **k):
        if any(c in mode for c in 'wax+'):
            self.write()
        return open(path, mode, *a, **k)

    def os(self):
        flash = self

        class Os:
            def __getattr__(self, name):
                return getattr(os, name)

            def rename(self, a, b):
                flash.write()
                os.rename(a, b)

            def remove(self, p):
                flash.write()
                os.remove(p)

            def mkdir(self, p, *a):
                flash.write()
                os.mkdir(p, *a)

            def rmdir(self, p):
                flash.write()
                os.rmdir(p)
        return Os()


def stream(monkeypatch, flash_dir, pkg2, cut=None):
    """POST the update with the power failing at write `cut`; returns the Flash."""
    flash = Flash(cut)
    fake_os = flash.os()
    for mod in (update, apps):
        monkeypatch.setattr(mod, 'open', flash.open, raising=False)
        monkeypatch.setattr(mod, 'os', fake_os)
    monkeypatch.setattr(update, 'restart', lambda: None)
    data = body(pkg2)

    async def check(h):
        token = await h.pair()
        try:
            await post_update(h, data, token)
        except (OSError, ValueError):     # the board died under the request
            pass

    try:
        nh.run(check, board='wlan_bare', flash=str(flash_dir))
    finally:
        monkeypatch.undo()
    return flash


def loader_files(pkg):
    m = json.loads((pkg / 'manifest.json').read_text())
    return {rel[len('loader/'):]: (pkg / rel).read_bytes() for rel in m['files']
            if rel.startswith('loader/')}


def test_an_update_cut_at_each_write_leaves_one_whole_version(tmp_path, monkeypatch):
    pkg1 = tmp_path / 'p1'
    v1 = package.build_package(str(pkg1), src=str(firmware_copy(tmp_path, 'fw1')))['version']
    src2 = firmware_copy(tmp_path, 'fw2')
    main = src2 / 'main.py'
    main.write_text(main.read_text() + '\n# version 2 of the loader\n')
    pkg2 = tmp_path / 'p2'
    v2 = package.build_package(str(pkg2), src=str(src2))['version']
    snapshot = tmp_path / 'before'
    snapshot.mkdir()
    assert install(snapshot, pkg1, 'a') == v1
    (snapshot / 'game.json').write_text(SAVE)
    old_loader, new_loader = loader_files(pkg1), loader_files(pkg2)

    flash_dir = tmp_path / 'flash'
    shutil.copytree(snapshot, flash_dir)
    total = stream(monkeypatch, flash_dir, pkg2).n       # no cut: every write counted
    assert apps.read(str(flash_dir))['run'] == 'b' and total > 100, total
    assert (flash_dir / 'main.py').read_bytes() == new_loader['main.py'] != old_loader[
        'main.py']

    cuts = [k for k in range(1, total + 1)
            if sweep.long() or k % STRIDE == 1 or k > total - TAIL]
    seen = {}
    for k in cuts:
        shutil.rmtree(flash_dir)
        shutil.copytree(snapshot, flash_dir)
        flash = stream(monkeypatch, flash_dir, pkg2, cut=k)
        assert flash.n >= k, (k, flash.n)                 # the cut happened
        root = str(flash_dir)
        ptr = apps.read(root)           # the pointer as main.py reads it at the next start
        run = ptr['run']
        assert apps.verify(run, root) is None, (k, run)
        version = apps.version(run, root)
        assert version in (v1, v2), (k, version)
        for name, new in new_loader.items():
            got = (flash_dir / name).read_bytes()
            assert got in (old_loader.get(name), new), (k, name)
        assert (flash_dir / 'game.json').read_text() == SAVE
        seen[k] = '1' if version == v1 else '2'
    order = ''.join(seen[k] for k in cuts)
    print('update cut at %d of %d writes: %s' % (len(cuts), total, order))
    assert order[0] == '1' and order == ''.join(sorted(order)), order
    assert seen[cuts[-1]] == '2'      # the last write (main.py placed) is after the switch
