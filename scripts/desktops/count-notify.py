#!/usr/bin/python3
"""Counts what a dbus-monitor log of org.freedesktop.Notifications holds:
Notify calls (with a sound-name, with replaces_id 0), the ids the server gave
back, CloseNotification calls and NotificationClosed signals with reasons."""
import re
import signal
import sys

signal.signal(signal.SIGPIPE, signal.SIG_DFL)

lines = open(sys.argv[1], encoding="utf-8", errors="replace").read().split("\n")
blocks, current = [], []
for line in lines:
    if re.match(r"^(method call|method return|signal|error) ", line):
        if current:
            blocks.append(current)
        current = [line]
    elif current:
        current.append(line)
if current:
    blocks.append(current)

notify_serials, notifies, ids, closes, closed = {}, [], [], [], []
for block in blocks:
    head, text = block[0], "\n".join(block)
    serial = re.search(r"serial=(\d+)", head)
    if head.startswith("method call") and "member=Notify" in head:
        strings = re.findall(r'^\s+string "(.*?)"$', text, re.M | re.S)
        replaces = re.search(r'^\s+uint32 (\d+)$', text, re.M)
        timeout = re.findall(r'^\s+int32 (-?\d+)$', text, re.M)
        urgency = re.search(r'string "urgency"\s+variant\s+byte (\d)', text)
        body = strings[3] if len(strings) > 3 else ""
        notifies.append({
            "replaces": int(replaces.group(1)) if replaces else -1,
            "sound": 'string "sound-name"' in text,
            "transient": 'string "transient"' in text,
            "urgency": urgency.group(1) if urgency else "?",
            "timeout": timeout[-1] if timeout else "?",
            "summary": strings[2] if len(strings) > 2 else "",
            "body": body.replace("\n", " / ")[:70],
        })
        sender = re.search(r"sender=(\S+)", head)
        notify_serials[(sender.group(1) if sender else "", serial.group(1))] = len(notifies) - 1
    elif head.startswith("method return"):
        reply = re.search(r"reply_serial=(\d+)", head)
        to = re.search(r"destination=(\S+)", head)
        if reply and to and (to.group(1), reply.group(1)) in notify_serials:
            got = re.search(r'^\s+uint32 (\d+)$', text, re.M)
            if got:
                ids.append(int(got.group(1)))
    elif head.startswith("method call") and "member=CloseNotification" in head:
        closes.append(re.search(r'uint32 (\d+)', text).group(1))
    elif head.startswith("signal") and "member=NotificationClosed" in head:
        values = re.findall(r'uint32 (\d+)', text)
        closed.append(tuple(values[:2]))

print(f"Notify calls: {len(notifies)}")
print(f"  with sound-name: {sum(n['sound'] for n in notifies)}; new (replaces_id 0): "
      f"{sum(n['replaces'] == 0 for n in notifies)}; transient: {sum(n['transient'] for n in notifies)}")
print(f"ids given back: {sorted(set(ids))}")
print(f"CloseNotification: {closes}")
print(f"NotificationClosed (id, reason): {closed}")
seen = None
for n in notifies:
    key = (n["replaces"], n["urgency"], n["timeout"], n["summary"], n["body"][:28])
    if key != seen:
        print(f"  replaces={n['replaces']} urgency={n['urgency']} timeout={n['timeout']} "
              f"sound={int(n['sound'])} | {n['summary']} | {n['body']}")
    seen = key
