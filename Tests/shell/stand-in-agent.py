#!/usr/bin/python3
# STAND-IN for relavoi-agent, test-only: owns com.relavoi.Agent on the session bus and
# serves the part of com.relavoi.Agent1 the Shell extension reads (the Calls property with
# PropertiesChanged, and Dismiss), playing one call like `relavoi-agent --demo`: ringing,
# answered, a live stretch, ended with a linger, gone. Not the agent: check-gnome-shell.sh
# uses it only with AGENT=stand-in, to work on the extension without building the agent
# (make test runs the real agent).
#   stand-in-agent.py [--ring S] [--live S] [--linger S] [--label TEXT]
import argparse
import sys
import time

from gi.repository import Gio, GLib

XML = """<node>
  <interface name="com.relavoi.Agent1">
    <property name="Calls" type="aa{sv}" access="read"/>
    <method name="Dismiss"><arg name="session_id" type="s" direction="in"/></method>
  </interface>
</node>"""

args = argparse.ArgumentParser()
args.add_argument("--ring", type=float, default=3)
args.add_argument("--live", type=float, default=20)
args.add_argument("--linger", type=float, default=5)
args.add_argument("--label", default="Ada Lovelace")
opts = args.parse_args()

loop = GLib.MainLoop()
connection = None
now_ms = lambda: int(time.time() * 1000)
call = {
    "session-id": "stand-in-1",
    "label": opts.label,
    "proxy-number": "+2348000000001",
    "badge": "checking",
    "badge-text": "Checking…",
    "phase": "ringing",
    "rang-at": now_ms(),
    "answered-at": 0,
    "ended-at": 0,
    "duration": 0,
}
calls = [call]


def variant():
    types = {k: ("x" if isinstance(v, int) else "s") for k, v in call.items()}
    return GLib.Variant("aa{sv}", [{k: GLib.Variant(types[k], v) for k, v in c.items()} for c in calls])


def changed():
    if connection is not None:
        connection.emit_signal(None, "/com/relavoi/Agent", "org.freedesktop.DBus.Properties", "PropertiesChanged",
                               GLib.Variant("(sa{sv}as)", ("com.relavoi.Agent1", {"Calls": variant()}, [])))


def step(update, then=None, after=0):
    def run():
        update()
        changed()
        print("stand-in: %s" % (call["phase"] if calls else "gone"), flush=True)
        if then is not None:
            GLib.timeout_add(int(after * 1000), then)
        return False
    return run


def answer():
    call.update({"phase": "live", "answered-at": now_ms(), "badge": "verified", "badge-text": "Verified"})


def end():
    call.update({"phase": "ended", "ended-at": now_ms(), "duration": (now_ms() - call["answered-at"]) // 1000})


def gone():
    calls.clear()


finish = step(gone, loop.quit, 1)
ended = step(end, finish, opts.linger)
live = step(answer, ended, opts.live)


def on_method(conn, sender, path, iface, method, params, invocation):
    session_id = params.unpack()[0]
    if method == "Dismiss" and calls and session_id == call["session-id"]:
        gone()
        changed()
        invocation.return_value(None)
        print("stand-in: dismissed", flush=True)
        GLib.timeout_add(500, loop.quit)
    else:
        invocation.return_dbus_error("com.relavoi.Agent1.Error.UnknownSession", "no call %s" % session_id)


def on_get(conn, sender, path, iface, name):
    return variant() if name == "Calls" else None


def on_bus(conn, name):
    global connection
    connection = conn
    info = Gio.DBusNodeInfo.new_for_xml(XML).interfaces[0]
    conn.register_object("/com/relavoi/Agent", info, on_method, on_get, None)


def on_name(conn, name):
    print("stand-in: owns %s, ringing" % name, flush=True)
    GLib.timeout_add(int(opts.ring * 1000), live)


def on_lost(conn, name):
    print("stand-in: could not own %s" % name, file=sys.stderr, flush=True)
    loop.quit()


Gio.bus_own_name(Gio.BusType.SESSION, "com.relavoi.Agent", Gio.BusNameOwnerFlags.NONE, on_bus, on_name, on_lost)
GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, 15, lambda: loop.quit() or False)
loop.run()
