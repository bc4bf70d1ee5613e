#!/usr/bin/env python3
"""Writes the seed corpus of the fuzz targets (Fuzz/corpus/<target>/).

Deterministic: running it again rewrites the same files. Names tell the
regression tests what to expect: frames `ok-*` decode, `bad-*` are refused;
settings `ok-*` parse, `bad-*` are refused; D-Bus seeds are checked against
the documented rules whatever their name. See docs/hardening.md.
"""
import json
import os
import shutil
import struct

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
TENANT = "5a4d0000-0000-4000-8000-00000000c0de"
TIME = "2026-07-15T12:14:59.758Z"

# The fields of each event type, as the wire carries them (without time and tenant).
EVENTS = {
    "session.created": {"sessionId": "s-1", "proxyNumber": "+4915100000001", "directionMode": "BIDIRECTIONAL",
                        "recordingEnabled": False},
    "session.activated": {"sessionId": "s-2"},
    "session.expired": {"sessionId": "s-3", "proxyNumber": "+4915100000003"},
    "call.incoming": {"sessionId": "s-4", "proxyNumber": "+4915100000004"},
    "call.answered": {"sessionId": "s-5", "cpaasSessionId": "cp-5"},
    "call.ended": {"sessionId": "s-6", "cpaasSessionId": "cp-6", "durationSeconds": 73},
    "sms.received": {"sessionId": "s-7", "smsRecordId": "sms-7"},
}


def compact(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def envelope(type_, fields, id_="1718000000000-0", time=TIME, extra=None):
    payload = {"tenantId": TENANT, **fields, "timestamp": time}
    frame = {"type": type_, "payload": payload}
    if id_ is not None:
        frame["id"] = id_
    frame.update(extra or {})
    return compact(frame)


def flat(type_, fields, time=TIME):
    return compact({"type": type_, "tenantId": TENANT, **fields, "ts": time})


def frames():
    out = {}
    for type_, fields in EVENTS.items():
        out[f"ok-envelope-{type_}.json"] = envelope(type_, fields)
        out[f"ok-flat-{type_}.json"] = flat(type_, fields)
    out["ok-connected.json"] = compact({"type": "connected", "tenantId": TENANT, "at": 1784117699758})
    out["ok-connected-bare.json"] = '{"type":"connected"}'
    out["ok-pong.txt"] = "pong"
    out["ok-pong.json"] = '{"type":"pong"}'
    out["ok-unknown-type.json"] = envelope("pool.low_availability", {"available": 2})
    out["ok-call.missed.json"] = envelope("call.missed", {"sessionId": "s-8", "cpaasSessionId": "cp-8"})
    out["ok-unknown-payload-array.json"] = compact({"type": "x.y", "payload": [1, 2], "id": "1-1"})
    out["ok-envelope-empty-id.json"] = envelope("call.answered", {"sessionId": "s"}, id_="")
    out["ok-envelope-no-id.json"] = envelope("call.answered", {"sessionId": "s"}, id_=None)
    out["ok-envelope-payload-null.json"] = compact(
        {"type": "call.answered", "payload": None, "sessionId": "s", "ts": TIME})
    out["ok-incoming-with-caller.json"] = envelope(
        "call.incoming", {"sessionId": "s", "callerNumber": "+15550100", "proxyNumber": "+15550199"})
    out["ok-incoming-caller-null.json"] = envelope(
        "call.incoming", {"sessionId": "s", "callerNumber": None, "proxyNumber": "+15550199"})
    out["ok-ended-duration-double.json"] = envelope("call.ended", {"sessionId": "s", "durationSeconds": 73.6})
    out["ok-ended-duration-null.json"] = envelope("call.ended", {"sessionId": "s", "durationSeconds": None})
    out["ok-ended-no-duration.json"] = envelope("call.ended", {"sessionId": "s"})
    for name, time in {
        "offset-colon": "2026-07-15T14:14:59.758+02:00", "offset-plain": "2026-07-15T14:14:59+0200",
        "no-zone": "2026-07-15T12:14:59", "comma-fraction": "2026-07-15T12:14:59,758Z",
        "leap-second": "2016-12-31T23:59:60Z", "lower-t-z": "2026-07-15t12:14:59z",
        "space": "2026-07-15 12:14:59Z", "long-fraction": "2026-07-15T12:14:59.123456789012Z",
        "leap-day": "2024-02-29T00:00:00Z", "year-zero": "0000-01-01T00:00:00Z",
    }.items():
        out[f"ok-time-{name}.json"] = envelope("call.answered", {"sessionId": "s"}, time=time)
    out["ok-flat-timestamp-key.json"] = compact({"type": "call.answered", "sessionId": "s", "timestamp": TIME})
    out["ok-timestamp-top-level.json"] = compact(
        {"type": "call.answered", "payload": {"sessionId": "s"}, "timestamp": TIME})
    out["ok-duplicate-keys.json"] = '{"type":"call.answered","type":"call.ended","payload":{"sessionId":"s","timestamp":"%s"}}' % TIME
    out["ok-escapes.json"] = envelope("call.answered", {"sessionId": "s\\n\"\t\u00e9\u202e"})
    out["ok-unicode-escapes.json"] = ('{"type":"call.answered","payload":{"sessionId":"\\u0073\\ud83d\\ude00\\u00e9",'
                                      '"timestamp":"%s"}}' % TIME)
    out["ok-lone-surrogate.json"] = '{"type":"call.answered","payload":{"sessionId":"\\ud800x","timestamp":"%s"}}' % TIME
    out["ok-whitespace.json"] = ' \r\n\t{ "type" : "call.answered" , "payload" : { "sessionId" : "s" , "timestamp" : "%s" } } \n' % TIME
    out["ok-numbers.json"] = compact({"type": "n.x", "payload": {"a": -0, "b": 1.5e-3, "c": 9223372036854775807,
                                                                 "d": -9223372036854775808, "e": 1e308}})
    out["ok-big-int.json"] = '{"type":"n.x","payload":{"a":99999999999999999999999,"b":-99999999999999999999}}'
    out["ok-nesting-32.json"] = '{"type":"n.x","payload":' + "[" * 30 + "]" * 30 + "}"

    out["bad-not-json.txt"] = "{not json"
    out["bad-empty.txt"] = ""
    out["bad-truncated.json"] = envelope("call.answered", {"sessionId": "s"})[:-7]
    out["bad-nesting-40.json"] = '{"type":"n.x","payload":' + "[" * 40 + "]" * 40 + "}"
    out["bad-brackets.txt"] = "[" * 200
    out["bad-array-top.json"] = "[1,2]"
    out["bad-string-top.json"] = '"call.answered"'
    out["bad-missing-type.json"] = compact({"payload": {"sessionId": "s"}})
    out["bad-type-empty.json"] = compact({"type": "", "payload": {}})
    out["bad-type-number.json"] = compact({"type": 5, "payload": {}})
    out["bad-payload-string.json"] = compact({"type": "call.answered", "payload": "s"})
    out["bad-sessionId-number.json"] = envelope("call.answered", {"sessionId": 5})
    out["bad-sessionId-empty.json"] = envelope("call.answered", {"sessionId": ""})
    out["bad-sessionId-missing.json"] = envelope("call.answered", {})
    out["bad-incoming-no-numbers.json"] = envelope("call.incoming", {"sessionId": "s"})
    out["bad-caller-number-type.json"] = envelope("call.incoming", {"sessionId": "s", "callerNumber": 5})
    out["bad-duration-negative.json"] = envelope("call.ended", {"sessionId": "s", "durationSeconds": -1})
    out["bad-duration-huge.json"] = envelope("call.ended", {"sessionId": "s", "durationSeconds": 1e300})
    out["bad-duration-string.json"] = envelope("call.ended", {"sessionId": "s", "durationSeconds": "73"})
    out["bad-time-month-13.json"] = envelope("call.answered", {"sessionId": "s"}, time="2026-13-15T12:14:59Z")
    out["bad-time-feb-30.json"] = envelope("call.answered", {"sessionId": "s"}, time="2026-02-30T12:14:59Z")
    out["bad-time-garbage.json"] = envelope("call.answered", {"sessionId": "s"}, time="yesterday")
    out["bad-time-number.json"] = compact({"type": "call.answered", "payload": {"sessionId": "s", "timestamp": 5}})
    out["bad-time-missing.json"] = compact({"type": "call.answered", "payload": {"sessionId": "s"}})
    out["bad-number-out-of-range.json"] = '{"type":"n.x","payload":{"a":1e309}}'
    out["bad-number-forms.json"] = '{"type":"n.x","payload":{"a":01}}'
    out["bad-control-char.json"] = '{"type":"call.answered","payload":{"sessionId":"a\x01b"}}'
    out["bad-escape.json"] = '{"type":"call.answered","payload":{"sessionId":"\\x41"}}'
    out["bad-trailing-data.json"] = envelope("call.answered", {"sessionId": "s"}) + "{}"
    out["bad-literal.json"] = '{"type":"n.x","payload":{"a":tru}}'
    out["bad-invalid-utf8.bin"] = b'{"type":"call.answered","payload":{"sessionId":"\xff\xfe","timestamp":"' + TIME.encode() + b'"}}'
    out["bad-overlong-utf8.bin"] = b'{"type":"n.x","payload":{"a":"\xc0\xaf"}}'
    out["bad-pong-spaced.txt"] = "pong "
    return out


def settings():
    full = """# agent.conf with every key
[agent]
base-url = https://api.relavoi.com/v1
ws-url = wss://api.relavoi.com/ws
api-key = rk_test_5a4d5a4d5a4d5a4d
tenant-id = 5A4D0000-0000-4000-8000-00000000C0DE
user-phone = +2348011112222
api-secret-file = /home/me/.config/relavoi/secret
dismiss-policy = after:600
ring-through-dnd = true
sms-notifications = no
proxy-numbers = +15550001, +15550002;+15550003 ,
max-banners = 20
label-key = rider_label
banners-enabled = on
keep-on-screen = 0
tray-item = off
"""
    out = {
        "ok-full.conf": full,
        "ok-empty.conf": "",
        "ok-only-group.conf": "[agent]\n",
        "ok-minimal.conf": "[agent]\napi-key=k\ntenant-id=5a4d0000-0000-4000-8000-00000000c0de\n",
        "ok-other-groups.conf": "[other]\nwhatever = 1\n[agent]\nmax-banners=1\n",
        "ok-environment.conf": ("[agent]\napi-key = from-file\nbase-url = ftp://bad\n[environment]\n"
                                "RELAVOI_API_KEY = from-env\nRELAVOI_BASE_URL = http://127.0.0.1:8080/v1\n"
                                "RELAVOI_WS_URL = ws://127.0.0.1:8080/ws\nRELAVOI_TENANT_ID=5a4d0000-0000-4000-8000-00000000c0de\n"
                                "RELAVOI_USER_PHONE=+15550100123\nRELAVOI_API_SECRET_FILE=/tmp/s\nHOME=/root\n"),
        "ok-env-empty-ignored.conf": "[agent]\nmax-banners = 2\n[environment]\nRELAVOI_API_KEY =\n",
        "ok-escapes.conf": "[agent]\nlabel-key = a\\sb\\tc\\\\d\napi-key = \\s\\skey\\s\n",
        "ok-dismiss.conf": "[agent]\ndismiss-policy = AFTER:0\n",
        "ok-dismiss-default.conf": "[agent]\ndismiss-policy = Default\n",
        "ok-crlf.conf": "[agent]\r\nmax-banners = 3\r\nsms-notifications = TRUE\r\n",
        "ok-blank-values.conf": "[agent]\napi-key =\nws-url =\ntenant-id =\nuser-phone=\napi-secret-file=\n",
        "ok-comments.conf": "# comment\n\n  # indented comment\n[agent]\n# max-banners = 99\nmax-banners = 4\n",
        "ok-unicode.conf": "[agent]\nlabel-key = ライダー\nproxy-numbers = ＋１５５５\n",
        "ok-bad-escape-dropped.conf": "[agent]\napi-key = a\\qb\n",
        "bad-unknown-key.conf": "[agent]\nmax-banner = 3\n",
        "bad-api-secret.conf": "[agent]\napi-secret = rs_0badc0de\n",
        "bad-max-banners-0.conf": "[agent]\nmax-banners = 0\n",
        "bad-max-banners-21.conf": "[agent]\nmax-banners = 21\n",
        "bad-max-banners-text.conf": "[agent]\nmax-banners = three\n",
        "bad-max-banners-huge.conf": "[agent]\nmax-banners = 99999999999999999999999\n",
        "bad-base-url-scheme.conf": "[agent]\nbase-url = ftp://example.com\n",
        "bad-base-url-no-host.conf": "[agent]\nbase-url = https://\n",
        "bad-ws-url-http.conf": "[agent]\nws-url = https://example.com/ws\n",
        "bad-tenant.conf": "[agent]\ntenant-id = not-a-uuid\n",
        "bad-phone-no-plus.conf": "[agent]\nuser-phone = 2348011112222\n",
        "bad-phone-zero.conf": "[agent]\nuser-phone = +0348011112222\n",
        "bad-phone-long.conf": "[agent]\nuser-phone = +1234567890123456\n",
        "bad-phone-arabic-digits.conf": "[agent]\nuser-phone = +٢٣٤٨٠١١١١٢٢٢٢\n",
        "bad-dismiss.conf": "[agent]\ndismiss-policy = after:14401\n",
        "bad-dismiss-negative.conf": "[agent]\ndismiss-policy = after:-1\n",
        "bad-dismiss-word.conf": "[agent]\ndismiss-policy = later\n",
        "bad-bool.conf": "[agent]\nring-through-dnd = maybe\n",
        "bad-label-key-long.conf": "[agent]\nlabel-key = " + "k" * 65 + "\n",
        "bad-label-key-empty.conf": "[agent]\nlabel-key =\n",
        "bad-tray-item.conf": "[agent]\ntray-item = yes\n",
        "ok-pause-media.conf": "[agent]\npause-media = Answered\n",
        "bad-pause-media.conf": "[agent]\npause-media = on\n",
        "bad-env-url.conf": "[agent]\n[environment]\nRELAVOI_WS_URL = http://example.com\n",
        "bad-env-tenant.conf": "[environment]\nRELAVOI_TENANT_ID = x\n",
    }
    return out


def dbus():
    now = 1784117699

    def seed(sid="ses_1", proxy="+2348000000001", label="Chowdeck rider", policy="immediate", elapsed=0, after=0,
             clock=now):
        strings = [s.encode() if isinstance(s, str) else s for s in (sid, proxy, label, policy)]
        return struct.pack("<iqI", elapsed, after, clock) + b"\0".join(strings)

    out = {
        "start-valid.bin": seed(),
        "update-valid.bin": seed(elapsed=754, policy="default"),
        "end-after-valid.bin": seed(policy="after", after=now + 600),
        "end-after-earliest.bin": seed(policy="after", after=now - 3600),
        "end-after-too-early.bin": seed(policy="after", after=now - 3601),
        "end-after-latest.bin": seed(policy="after", after=now + 4 * 3600 + 60),
        "end-after-too-late.bin": seed(policy="after", after=now + 4 * 3600 + 61),
        "end-after-min.bin": seed(policy="after", after=-(2 ** 63)),
        "end-after-max.bin": seed(policy="after", after=2 ** 63 - 1),
        "end-immediate-with-time.bin": seed(policy="immediate", after=now),
        "end-clock-zero.bin": seed(policy="after", after=0, clock=0),
        "end-clock-max.bin": seed(policy="after", after=2 ** 32 - 1, clock=2 ** 32 - 1),
        "elapsed-max.bin": seed(elapsed=8 * 3600),
        "elapsed-over.bin": seed(elapsed=8 * 3600 + 1),
        "elapsed-negative.bin": seed(elapsed=-1),
        "elapsed-min.bin": seed(elapsed=-(2 ** 31)),
        "session-128.bin": seed(sid="a" * 128),
        "session-129.bin": seed(sid="a" * 129),
        "session-empty.bin": seed(sid=""),
        "session-all-chars.bin": seed(sid="AZaz09._:-"),
        "session-space.bin": seed(sid="ses 1"),
        "session-unicode.bin": seed(sid="sés_1"),
        "session-combining.bin": seed(sid="e\u0301" * 100),
        "session-invalid-utf8.bin": seed(sid=b"ses\xff"),
        "proxy-32.bin": seed(proxy="+" + "1" * 31),
        "proxy-33.bin": seed(proxy="+" + "1" * 32),
        "proxy-no-digit.bin": seed(proxy="+ - ( )"),
        "proxy-empty.bin": seed(proxy=""),
        "proxy-letters.bin": seed(proxy="+1555CALLME"),
        "proxy-fullwidth.bin": seed(proxy="＋１５５５"),
        "label-1024.bin": seed(label="x" * 1024),
        "label-1025.bin": seed(label="x" * 1025),
        "label-multibyte-edge.bin": seed(label="x" * 1022 + "é"),
        "label-multibyte-over.bin": seed(label="x" * 1023 + "é"),
        "label-controls.bin": seed(label="<b>A</b>\u202e\n\t✔ Verified"),
        "policy-unknown-plain.bin": seed(policy="later"),
        "policy-unknown-long.bin": seed(policy="x" * 33),
        "policy-unknown-control.bin": seed(policy="\x1b[31mred"),
        "policy-unknown-bidi.bin": seed(policy="after\u202e"),
        "policy-case.bin": seed(policy="Immediate"),
        "short.bin": b"\x01\x02",
        "empty.bin": b"",
    }
    return out


def tray_menu():
    # Header: Int32 item id, UInt8 calls, UInt8 flags (bit 0 clipboard, 2 bits of phase per call), 2 spare.
    ringing, live, ended, missed = 0, 1, 2, 3

    def seed(item, event="clicked", calls=(("ses_1", "Chowdeck rider", "+2348000000001", live),), copy=True):
        flags = 1 if copy else 0
        strings = [event]
        for index, (sid, label, number, phase) in enumerate(calls):
            flags |= phase << (1 + 2 * index)
            strings += [sid, label, number]
        encoded = [x.encode() if isinstance(x, str) else x for x in strings]
        return struct.pack("<iBBH", item, len(calls), flags, 0) + b"\0".join(encoded)

    two = (("ses_a", "First", "+2348000000001", live), ("ses_b", "Second", "+2348000000002", ringing))
    three = two + (("ses_c", "Third", "", ended),)
    out = {
        "click-dismiss.bin": seed(13),
        "click-copy.bin": seed(12),
        "click-copy-no-clipboard.bin": seed(12, copy=False),
        "click-label.bin": seed(9),
        "click-number.bin": seed(10),
        "click-badge.bin": seed(11),
        "click-row-6.bin": seed(14),
        "click-row-7.bin": seed(15),
        "click-separator-first.bin": seed(8),
        "click-root.bin": seed(0),
        "click-negative.bin": seed(-1),
        "click-min.bin": seed(-(2 ** 31)),
        "click-max.bin": seed(2 ** 31 - 1),
        "click-unknown-slot.bin": seed(21),
        "hovered-dismiss.bin": seed(13, event="hovered"),
        "opened-root.bin": seed(0, event="opened"),
        "closed-root.bin": seed(0, event="closed"),
        "event-unknown.bin": seed(13, event="activate"),
        "event-case.bin": seed(13, event="Clicked"),
        "event-empty.bin": seed(13, event=""),
        "event-control.bin": seed(13, event="\x1b[31mclicked"),
        "event-bidi.bin": seed(13, event="clicked\u202e"),
        "event-long.bin": seed(13, event="c" * 300),
        "event-invalid-utf8.bin": seed(13, event=b"click\xff"),
        "two-dismiss-second.bin": seed(21, calls=two),
        "two-separator.bin": seed(16, calls=two),
        "two-copy-second.bin": seed(20, calls=two),
        "three-no-number-copy.bin": seed(28, calls=three),
        "three-no-number-row.bin": seed(26, calls=three),
        "three-dismiss-third.bin": seed(29, calls=three),
        "duplicate-session.bin": seed(21, calls=(("ses_a", "A", "+1555", live), ("ses_a", "B", "+1556", ended))),
        "no-calls.bin": seed(13, calls=()),
        "missed-dismiss.bin": seed(13, calls=(("ses_m", "Missed one", "+2348000000009", missed),)),
        "empty-session.bin": seed(13, calls=(("", "", "", live),)),
        "click-settings.bin": seed(3),
        "click-settings-no-calls.bin": seed(3, calls=()),
        "hovered-settings.bin": seed(3, event="hovered"),
        "click-settings-separator.bin": seed(2),
        "click-settings-separator-no-calls.bin": seed(2, calls=()),
        "short.bin": b"\x0d\x00",
        "empty.bin": b"",
    }
    return out


def main():
    for target, files in (("fuzz-frames", frames()), ("fuzz-settings", settings()), ("fuzz-dbus", dbus()),
                          ("fuzz-tray-menu", tray_menu())):
        directory = os.path.join(ROOT, target)
        shutil.rmtree(directory, ignore_errors=True)
        os.makedirs(directory)
        for name, content in sorted(files.items()):
            data = content if isinstance(content, bytes) else content.encode()
            with open(os.path.join(directory, name), "wb") as handle:
                handle.write(data)
        print(f"{directory}: {len(files)} seeds")


if __name__ == "__main__":
    main()
