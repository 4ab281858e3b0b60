# `make deploy BOARD=... WIFI_SSID=... WIFI_PASSWORD=... MQTT=host:port,venue=...,table=...` on
# the virtual pty board (tools/vboard.py): /net.json arrives with the right JSON, the password is
# in no output (make's, deploy's, --verbose's), and no copy of it is left on the host. A board
# without Wi-Fi is refused before anything is copied; malformed MQTT settings are refused.
import json
import os
import subprocess
import tempfile

import pytest

import deploy
from test_deploy import make_deploy, tree  # noqa: F401  (the fixture)
from test_vboard import ROOT, VBoardProcess

pytest.importorskip('serial')

PASSWORD = 'pw-Xq7!zz$secret'
MQTT_PASSWORD = 'mq-9Zk-secret'


def run_deploy(tree, port, board, env, extra=''):  # noqa: F811
    flags = '--src %s --boards %s --build %s %s' % (tree['src'], tree['boards'], tree['build'],
                                                    extra)
    cmd = ['make', '-s', '--no-print-directory', '-C', ROOT, 'deploy', 'BOARD=%s' % board,
           'DEPLOY_FLAGS=%s' % flags, 'PORT=%s' % port]
    cmd += ['%s=%s' % kv for kv in env.items()]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


def leftovers():
    return {n for n in os.listdir(tempfile.gettempdir()) if n.startswith('scoreboard-net-')}


def test_deploy_writes_net_json_and_never_shows_the_password(tree, tmp_path):  # noqa: F811
    if not tree['real']:
        pytest.skip('needs the real boards/')
    flash = tmp_path / 'flash'
    flash.mkdir()
    before = leftovers()
    vb = VBoardProcess(flash)
    try:
        r = run_deploy(tree, vb.path, 'pico_w_tm1637',
                       {'WIFI_SSID': 'Kings Arms', 'WIFI_PASSWORD': PASSWORD,
                        'MQTT': '10.0.0.2:1884,venue=kings-arms,table=3,user=bar',
                        'MQTT_PASSWORD': MQTT_PASSWORD}, extra='-v')
        assert r.returncode == 0, r.stdout + r.stderr
        assert 'net.json written' in r.stdout
        for text in (r.stdout, r.stderr):
            assert PASSWORD not in text and MQTT_PASSWORD not in text
        net = json.loads((flash / 'net.json').read_text())
        assert net == {'ssid': 'Kings Arms', 'password': PASSWORD, 'hostname': 'scoreboard',
                       'mqtt': {'host': '10.0.0.2', 'port': 1884, 'venue': 'kings-arms',
                                'table': '3', 'user': 'bar', 'password': MQTT_PASSWORD}}
        # The firmware reads what was written: the venue settings pass its own check.
        from scoreboard.net.venue import settings
        from scoreboard.net.wifi import load_settings
        assert settings(load_settings(str(flash)))['table'] == '3'
        # Wi-Fi only, a second time: the file is replaced whole, no mqtt left.
        r = run_deploy(tree, vb.path, 'pico_w_tm1637', {'WIFI_SSID': 'bar',
                                                        'WIFI_PASSWORD': PASSWORD})
        assert r.returncode == 0 and PASSWORD not in r.stdout + r.stderr
        assert json.loads((flash / 'net.json').read_text()) == {
            'ssid': 'bar', 'password': PASSWORD, 'hostname': 'scoreboard'}
        # Without any of them, net.json is left as it is.
        r = run_deploy(tree, vb.path, 'pico_w_tm1637', {})
        assert r.returncode == 0 and 'net.json' not in r.stdout
        assert json.loads((flash / 'net.json').read_text())['ssid'] == 'bar'
    finally:
        vb.stop()
    assert leftovers() == before
    assert not os.path.exists(os.path.join(ROOT, 'net.json'))
    out = subprocess.run(['git', '-C', ROOT, 'grep', '-l', PASSWORD], capture_output=True,
                         text=True)
    assert out.stdout.strip() in ('', 'host_tests/test_deploy_net.py')


def test_a_board_without_wifi_and_bad_settings_are_refused(tree):  # noqa: F811
    if not tree['real']:
        pytest.skip('needs the real boards/')
    r = run_deploy(tree, '/dev/null-no-such-port', 'pico_tm1637',
                   {'WIFI_SSID': 'bar', 'WIFI_PASSWORD': PASSWORD})
    assert r.returncode != 0 and "NETWORK = 'wlan'" in r.stderr
    assert PASSWORD not in r.stdout + r.stderr
    for bad in ('nohost', '10.0.0.2:99999', '10.0.0.2:1883,colour=red',
                '10.0.0.2:1883,table=a/b'):
        with pytest.raises(deploy.DeployError):
            deploy.net_settings({'MQTT': bad})
    with pytest.raises(deploy.DeployError):
        deploy.net_settings({'WIFI_PASSWORD': PASSWORD})
    assert deploy.net_settings({}) is None
    assert deploy.net_settings({'MQTT': 'h:1'})['mqtt'] == {
        'host': 'h', 'port': 1, 'venue': 'bar', 'table': '1', 'user': None, 'password': None}
