import CGLib
import Foundation
import RelavoiAgentKit
import RelavoiClient
import RelavoiCore
import RelavoiGLib
import RelavoiTestSupport
import XCTest

/// The agent's StatusNotifierItem as a panel sees it, against a watcher
/// stand-in on the private test bus: registration (and again after the
/// watcher restarts), Status, Title, ToolTip, XAyatanaLabel through ringing,
/// live and ended, the label's once-a-second pace, the menu and its Dismiss,
/// `tray-item = off`, and the GNOME extension's name keeping it Passive.
final class AgentTrayItemTests: XCTestCase {
    static let item = "/StatusNotifierItem"
    static let sni = "org.kde.StatusNotifierItem"
    static let newSignals: Set<String> = [
        "NewStatus", "NewTitle", "NewIcon", "NewAttentionIcon", "NewToolTip", "XAyatanaNewLabel",
    ]

    @MainActor static func property(_ client: BusTestClient, _ name: String) -> String {
        let reply = client.call(
            "Get", Args.tuple([Args.s(Self.sni), Args.s(name)]), interface: "org.freedesktop.DBus.Properties",
            path: Self.item)
        return reply.isError ? "error: \(reply.errorName ?? "")" : Args.printed(reply.value)
    }

    /// Polls a property until it matches (the agent answers within the loop's turns).
    @MainActor @discardableResult
    static func waitFor(
        _ client: BusTestClient, _ name: String, _ what: String, timeout: Double = 20, log: @autoclosure () -> String,
        file: StaticString = #filePath, line: UInt = #line, _ matches: @escaping (String) -> Bool
    ) -> String {
        var last = ""
        let ok = LoopWait.until(timeout: timeout) {
            last = Self.property(client, name)
            return matches(last)
        }
        XCTAssertTrue(ok, "\(what): \(name) stayed \(last)\n\(log().suffix(3000))", file: file, line: line)
        return last
    }

    /// The whole menu (dbusmenu's GetLayout from the root).
    @MainActor static func menuLayout(_ client: BusTestClient) -> BusTestClient.Reply {
        client.call(
            "GetLayout", Args.tuple([Args.i(0), Args.i(-1), g_variant_new_strv(nil, 0)]),
            interface: "com.canonical.dbusmenu", path: "/MenuBar")
    }

    /// Clicks the menu row labelled `label`, as a panel does; fails the test when there is none.
    @MainActor static func clickMenuItem(
        labelled label: String, _ client: BusTestClient, file: StaticString = #filePath, line: UInt = #line
    ) {
        let menu = Args.printed(menuLayout(client).value)
        let id = menuId(labelled: label, in: menu)
        XCTAssertNotNil(id, menu, file: file, line: line)
        let clicked = client.call(
            "Event",
            Args.tuple([
                Args.i(Int32(id ?? 0)), Args.s("clicked"), g_variant_new_variant(Args.i(0)), g_variant_new_uint32(0),
            ]), interface: "com.canonical.dbusmenu", path: "/MenuBar")
        XCTAssertFalse(clicked.isError, clicked.errorMessage ?? "", file: file, line: line)
    }

    /// The agent's unique name; fails the test when it cannot be read (a "" would make
    /// every "no object there" check pass for the wrong reason).
    @MainActor static func agentUniqueName(file: StaticString = #filePath, line: UInt = #line) -> String {
        let name = readAgentUniqueName()
        XCTAssertFalse(name.isEmpty, "com.relavoi.Agent has no owner", file: file, line: line)
        return name
    }

    @MainActor private static func readAgentUniqueName() -> String {
        guard let bus = try? BusTestClient(destination: "org.freedesktop.DBus") else { return "" }
        let reply = bus.call(
            "GetNameOwner", Args.tuple([Args.s(AgentBus.name)]), interface: "org.freedesktop.DBus",
            path: "/org/freedesktop/DBus")
        guard let value = reply.value else { return "" }
        let child = g_variant_get_child_value(value, 0)!
        defer { g_variant_unref(child) }
        return String(cString: g_variant_get_string(child, nil))
    }

    func testItemFollowsTheCallRegistersAgainAndDismissesFromTheMenu() throws {
        try MainActor.assumeIsolated {
            var watcher = try WatcherStandIn()
            XCTAssertTrue(LoopWait.until(timeout: 10) { watcher.ownsName }, "the stand-in owns the watcher name")
            let h = try AgentHarness(config: "dismiss-policy = after:120")
            defer {
                h.stop()
                watcher.stop()
            }
            XCTAssertTrue(h.waitForConnection(), "agent never connected:\n\(h.agent.log)")
            XCTAssertTrue(
                LoopWait.until(timeout: 15) { !watcher.registrations.isEmpty },
                "the item registered with the watcher:\n\(h.agent.log.suffix(2000))")
            let service = watcher.registrations[0].service
            XCTAssertEqual(service, Self.agentUniqueName(), "registered under the agent's unique name")
            XCTAssertEqual(watcher.registrations[0].sender, service)
            let client = try BusTestClient(destination: service)
            client.subscribe(interface: Self.sni, path: Self.item)
            XCTAssertEqual(Self.property(client, "Status"), "(<'Passive'>,)", "hidden before any call")
            XCTAssertEqual(Self.property(client, "Category"), "(<'Communications'>,)")
            XCTAssertEqual(Self.property(client, "Menu"), "(<objectpath '/MenuBar'>,)")
            XCTAssertEqual(Self.property(client, "ItemIsMenu"), "(<true>,)", "without open-url a click opens the menu")
            XCTAssertTrue(client.signals.isEmpty, "no signal while no call is shown: \(client.signals)")

            // Ringing.
            h.session("ses_t", proxy: "+2348000000001", label: "Chowdeck rider")
            h.send("call.incoming", "ses_t", ["proxyNumber": .string("+2348000000001")])
            Self.waitFor(client, "Status", "ringing", log: h.agent.log) { $0 == "(<'NeedsAttention'>,)" }
            Self.waitFor(client, "Title", "ringing title", log: h.agent.log) { $0 == "(<'Chowdeck rider'>,)" }
            XCTAssertEqual(Self.property(client, "XAyatanaLabel"), "(<'Ringing…'>,)")
            XCTAssertEqual(Self.property(client, "AttentionIconName"), "(<'com.relavoi.Agent-ringing-symbolic'>,)")
            Self.waitFor(client, "IconName", "the verified badge", log: h.agent.log) {
                $0 == "(<'com.relavoi.Agent-verified'>,)"
            }
            let ringingTip = Self.property(client, "ToolTip")
            XCTAssertTrue(ringingTip.contains("+234 800 000 0001") && ringingTip.contains("Ringing…"), ringingTip)
            XCTAssertTrue(
                watcher.registrations.count >= 1 && watcher.registrations.allSatisfy { $0.service == service },
                "registered during the call")

            // The menu lists the call.
            let layoutReply = Self.menuLayout(client)
            let layout = Args.printed(layoutReply.value)
            XCTAssertFalse(layoutReply.isError, layoutReply.errorMessage ?? "")
            for text in ["Chowdeck rider", "+234 800 000 0001", "Dismiss"] {
                XCTAssertTrue(layout.contains(text), "\(text) in \(layout)")
            }

            // Bad input: errors, and the agent keeps going.
            let unknownItem = client.call(
                "Event",
                Args.tuple([
                    Args.i(99_999), Args.s("clicked"), g_variant_new_variant(Args.i(0)), g_variant_new_uint32(0),
                ]),
                interface: "com.canonical.dbusmenu", path: "/MenuBar")
            XCTAssertTrue(unknownItem.isError, "an unknown menu id is an error")
            let wrongTypes = client.call(
                "Event", Args.tuple([Args.s("13"), Args.s("clicked")]), interface: "com.canonical.dbusmenu",
                path: "/MenuBar")
            XCTAssertEqual(wrongTypes.errorName, "org.freedesktop.DBus.Error.InvalidArgs")
            let badScroll = client.call(
                "Scroll", Args.tuple([Args.i(1), Args.s("\u{202E}sideways")]), interface: Self.sni, path: Self.item)
            XCTAssertEqual(badScroll.errorName, "org.freedesktop.DBus.Error.InvalidArgs")
            let badActivate = client.call("Activate", Args.tuple([Args.s("x")]), interface: Self.sni, path: Self.item)
            XCTAssertEqual(badActivate.errorName, "org.freedesktop.DBus.Error.InvalidArgs")
            let activate = client.call(
                "Activate", Args.tuple([Args.i(0), Args.i(0)]), interface: Self.sni, path: Self.item)
            XCTAssertFalse(activate.isError, "Activate opens nothing (ItemIsMenu) and replies")

            // Live: Active, the label ticks once a second.
            h.send("call.answered", "ses_t")
            Self.waitFor(client, "Status", "live", log: h.agent.log) { $0 == "(<'Active'>,)" }
            @MainActor func labelSignals() -> [String] {
                client.signals.filter { $0.member == "XAyatanaNewLabel" }.map(\.body)
            }
            // "At least" a second, not one exact label: a slow machine (AddressSanitizer) skips ticks.
            @MainActor func lastLabelSeconds() -> Int { labelSignals().last.flatMap(Self.labelSeconds) ?? -1 }
            XCTAssertTrue(
                LoopWait.until(timeout: 30) { lastLabelSeconds() >= 1 },
                "label 00:01: \(labelSignals())\n\(h.agent.log.suffix(2000))")
            let signalsBefore = client.signals.count
            let labelsBefore = labelSignals().count
            let target = lastLabelSeconds() + 4
            XCTAssertTrue(
                LoopWait.until(timeout: 30) { lastLabelSeconds() >= target }, "label +4 s: \(labelSignals())")
            let window = Array(client.signals.dropFirst(signalsBefore))
            let labels = Array(labelSignals().dropFirst(labelsBefore))
            XCTAssertEqual(labels.last?.hasSuffix(", '00:00')"), true, "the label's guide: \(labels)")
            // Each label a later second than the one before: it advances, never repeats.
            let times = labels.compactMap { Int($0.dropFirst(5).prefix(2)) }
            XCTAssertEqual(times, times.sorted())
            XCTAssertEqual(Set(times).count, times.count, "\(labels)")
            XCTAssertGreaterThanOrEqual(times.count, 2, "the label advanced: \(labels)")
            // Bounded by what changed, not by wall seconds: while live only the timer
            // moves, so the label and tooltip signals go out once per label change and
            // the others not at all (one each allowed for a batch in flight). More is
            // a storm, whatever the machine's speed.
            let steady: Set = ["NewStatus", "NewTitle", "NewIcon", "NewAttentionIcon"]
            for member in Self.newSignals {
                let count = window.filter { $0.member == member }.count
                let bound = steady.contains(member) ? 1 : labels.count + 1
                XCTAssertLessThanOrEqual(
                    count, bound, "\(member): \(count) for \(labels.count) label changes: \(window)")
            }
            let toolTips = window.filter { $0.member == "NewToolTip" }.count
            XCTAssertGreaterThanOrEqual(toolTips, labels.count - 1, "the tooltip's timer follows the label")
            let tick = Self.property(client, "ToolTip")
            XCTAssertTrue(tick.contains("Verified ·"), tick)
            print(
                "tray item: \(labels.count) XAyatanaNewLabel, \(toolTips) NewToolTip and \(window.count) New* signals"
                    + " while the label went \(times.first ?? -1) s → \(times.last ?? -1) s")

            // The watcher restarts (a panel restart): the item registers again.
            let registrationsBefore = watcher.registrations.count
            watcher.stop()
            watcher = try WatcherStandIn()
            let restartedAt = Date()
            XCTAssertTrue(
                LoopWait.until(timeout: 15) { watcher.registrations.count >= 1 },
                "registered again after the watcher restarted:\n\(h.agent.log.suffix(2000))")
            print(
                "tray item: registered again "
                    + String(format: "%.1f ms", Date().timeIntervalSince(restartedAt) * 1000)
                    + " after the watcher came back (\(registrationsBefore) registration before)")
            XCTAssertEqual(watcher.registrations.first?.service, service)

            // Ended: still shown, with the duration.
            h.send("call.ended", "ses_t", ["durationSeconds": .int(42)])
            Self.waitFor(client, "XAyatanaLabel", "ended", log: h.agent.log) { $0 == "(<'Ended 00:42'>,)" }
            XCTAssertEqual(Self.property(client, "Status"), "(<'Active'>,)")

            // "Dismiss" in the menu closes the banner; the item goes Passive.
            Self.clickMenuItem(labelled: "Dismiss", client)
            XCTAssertTrue(
                LoopWait.until(timeout: 10) { h.mock.closeCalls().count == 1 },
                "the banner closed (CloseNotification):\n\(h.agent.log.suffix(2000))")
            Self.waitFor(client, "Status", "after the call", log: h.agent.log) { $0 == "(<'Passive'>,)" }
            XCTAssertEqual(Self.property(client, "XAyatanaLabel"), "(<''>,)")
            XCTAssertTrue(h.agent.process.isRunning, "bad input did not stop the agent")
        }
    }

    /// A tick sends what holds the timer and nothing else: the label and the
    /// tooltip, and the menu's timer row only while a host has the menu open
    /// (its `Event(0, "opened")` to `Event(0, "closed")`); a closed menu gets no
    /// `ItemsPropertiesUpdated` or `LayoutUpdated`, and is brought up to date when
    /// it opens or a host calls `AboutToShow(0)`.
    func testATickSendsOnlyWhatHoldsTheTimer() throws {
        try withWatcherAndAgent(config: "dismiss-policy = after:120") { watcher, h in
            let client = try Self.registeredItem(h, watcher)
            client.subscribe(interface: Self.sni, path: Self.item)
            client.subscribe(interface: "com.canonical.dbusmenu", path: "/MenuBar")
            h.session("ses_k", proxy: "+2348000000001", label: "Chowdeck rider")
            h.send("call.incoming", "ses_k", ["proxyNumber": .string("+2348000000001")])
            Self.waitFor(client, "Status", "ringing", log: h.agent.log) { $0 == "(<'NeedsAttention'>,)" }
            h.send("call.answered", "ses_k")
            @MainActor func labelSignals() -> [String] {
                client.signals.filter { $0.member == "XAyatanaNewLabel" }.map(\.body)
            }
            @MainActor func lastLabelSeconds() -> Int { labelSignals().last.flatMap(Self.labelSeconds) ?? -1 }
            /// The signals sent while the label moved on `seconds` more seconds.
            @MainActor func signalsOver(_ seconds: Int) -> (window: [BusTestClient.Signal], labels: Int) {
                let signalsBefore = client.signals.count
                let labelsBefore = labelSignals().count
                let target = lastLabelSeconds() + seconds
                XCTAssertTrue(
                    LoopWait.until(timeout: 30) { lastLabelSeconds() >= target },
                    "label +\(seconds) s: \(labelSignals())")
                return (Array(client.signals.dropFirst(signalsBefore)), labelSignals().count - labelsBefore)
            }
            @MainActor func count(_ member: String, in window: [BusTestClient.Signal]) -> Int {
                window.filter { $0.member == member }.count
            }
            @MainActor func timerRowLabel() -> String {
                let menu = Args.printed(Self.menuLayout(client).value)
                guard let start = menu.range(of: "'label': <'Chowdeck rider  ") else { return "" }
                return String(menu[start.upperBound...].prefix(5))
            }
            XCTAssertTrue(
                LoopWait.until(timeout: 30) { lastLabelSeconds() >= 1 },
                "label 00:01: \(labelSignals())\n\(h.agent.log.suffix(2000))")
            // A host reads the menu once (libdbusmenu sends changes only of items a host has seen).
            XCTAssertFalse(Self.menuLayout(client).isError)

            // Closed: the label and the tooltip each second, nothing else.
            let closed = signalsOver(4)
            XCTAssertGreaterThanOrEqual(closed.labels, 2, "the label advanced")
            for member in [
                "NewStatus", "NewTitle", "NewIcon", "NewAttentionIcon", "LayoutUpdated", "ItemsPropertiesUpdated",
            ] {
                XCTAssertEqual(
                    count(member, in: closed.window), 0, "\(member) while live, the menu closed: \(closed.window)")
            }
            XCTAssertGreaterThanOrEqual(
                count("NewToolTip", in: closed.window), closed.labels - 1, "the tooltip's timer follows the label")
            print(
                "tray item, menu closed: \(closed.window.count) signals for \(closed.labels) label changes: "
                    + "\(Dictionary(grouping: closed.window, by: \.member).mapValues(\.count))")

            // A host opens the menu: the timer row is brought up to date, then follows each second.
            let opened = client.call(
                "Event",
                Args.tuple([Args.i(0), Args.s("opened"), g_variant_new_variant(Args.i(0)), g_variant_new_uint32(0)]),
                interface: "com.canonical.dbusmenu", path: "/MenuBar")
            XCTAssertFalse(opened.isError, opened.errorMessage ?? "")
            XCTAssertTrue(
                LoopWait.until(timeout: 10) {
                    client.signals.contains {
                        $0.member == "ItemsPropertiesUpdated" && $0.body.contains("Chowdeck rider")
                    }
                }, "the open menu's timer row brought up to date: \(client.signals.suffix(5))")
            let open = signalsOver(3)
            let rowUpdates = open.window.filter { $0.member == "ItemsPropertiesUpdated" }
            XCTAssertGreaterThanOrEqual(
                rowUpdates.count, open.labels - 1, "the open menu's timer follows: \(open.window)")
            for update in rowUpdates {
                XCTAssertTrue(
                    update.body.contains("Chowdeck rider") && !update.body.contains("Dismiss"),
                    "only the timer row changes: \(update.body)")
            }
            XCTAssertEqual(count("LayoutUpdated", in: open.window), 0, "no new layout for a tick")
            XCTAssertTrue(
                LoopWait.until(timeout: 5) { Self.property(client, "XAyatanaLabel").contains("'\(timerRowLabel())'") },
                "the open menu reads as the label: \(Self.property(client, "XAyatanaLabel")), \(timerRowLabel())")

            // Closed again: nothing for the menu.
            _ = client.call(
                "Event",
                Args.tuple([Args.i(0), Args.s("closed"), g_variant_new_variant(Args.i(0)), g_variant_new_uint32(0)]),
                interface: "com.canonical.dbusmenu", path: "/MenuBar")
            _ = signalsOver(1)  // an update already in flight
            let closedAgain = signalsOver(3)
            XCTAssertEqual(
                count("ItemsPropertiesUpdated", in: closedAgain.window), 0, "closed again: \(closedAgain.window)")

            // AboutToShow(0) (a host about to draw the menu) brings it up to date, once.
            let stale = timerRowLabel()
            let aboutToShow = client.call(
                "AboutToShow", Args.tuple([Args.i(0)]), interface: "com.canonical.dbusmenu", path: "/MenuBar")
            XCTAssertFalse(aboutToShow.isError, aboutToShow.errorMessage ?? "")
            XCTAssertTrue(
                LoopWait.until(timeout: 10) { timerRowLabel() != stale },
                "AboutToShow(0) brings the timer row up to date (\(stale))")
            let afterAboutToShow = signalsOver(3)
            XCTAssertLessThanOrEqual(
                count("ItemsPropertiesUpdated", in: afterAboutToShow.window), 1,
                "AboutToShow does not open the menu for good: \(afterAboutToShow.window)")
        }
    }

    /// The id of the menu row with this label, from GetLayout's printed reply.
    static func menuId(labelled label: String, in layout: String) -> Int? {
        guard let range = layout.range(of: "'label': <'\(label)'>") else { return nil }
        let before = layout[..<range.lowerBound]
        guard let open = before.range(of: "<(", options: .backwards) else { return nil }
        return Int(before[open.upperBound...].prefix { $0.isNumber })
    }

    /// "Settings…" in the menu, with or without a call, opens the Relavoi window on its
    /// Settings page (`app.show-page` over D-Bus, here a stand-in window).
    func testSettingsInTheMenuOpensTheWindow() throws {
        try withWatcherAndAgent(config: "") { watcher, h in
            let window = try StandInSettingsWindow()
            defer { window.stop() }
            XCTAssertTrue(LoopWait.until(timeout: 15) { !watcher.registrations.isEmpty }, "the item registered")
            let client = try BusTestClient(destination: Self.agentUniqueName())
            XCTAssertTrue(
                LoopWait.until(timeout: 15) { Args.printed(Self.menuLayout(client).value).contains("Settings…") },
                "Settings… in the quiet item's menu: \(Args.printed(Self.menuLayout(client).value))")
            Self.clickMenuItem(labelled: "Settings…", client)
            XCTAssertTrue(
                LoopWait.until(timeout: 15) { window.pagesAsked() == ["settings"] },
                "the window was asked for Settings: \(window.pagesAsked())\n\(h.agent.log.suffix(2000))")
            // The agent logs it once the window's reply is back, after the window got the call.
            XCTAssertTrue(
                h.agent.waitForLog("opened the Relavoi window on settings"), String(h.agent.log.suffix(2000)))
        }
    }

    func testNoItemWithTrayItemOff() throws {
        try withWatcherAndAgent(config: "tray-item = off") { watcher, h in
            h.session("ses_off", proxy: "+2348000000001", label: "Rider")
            h.send("call.incoming", "ses_off", ["proxyNumber": .string("+2348000000001")])
            h.waitForNotify(timeout: 15) { $0.hints["category"]?.hasPrefix("call") == true }
            XCTAssertTrue(watcher.registrations.isEmpty, "\(watcher.registrations)")
            let client = try BusTestClient(destination: Self.agentUniqueName())
            let get = client.call(
                "Get", Args.tuple([Args.s(Self.sni), Args.s("Status")]), interface: "org.freedesktop.DBus.Properties",
                path: Self.item)
            XCTAssertTrue(get.isError, "no object at \(Self.item)")
            XCTAssertTrue(Self.menuLayout(client).isError, "no menu either")
        }
    }

    /// `tray-item` turned on and off again in agent.conf while the agent runs:
    /// the item registers, then its object goes, each time without a restart.
    func testTrayItemSettingIsTakenInPlace() throws {
        try withWatcherAndAgent(config: "tray-item = off") { watcher, h in
            let file = h.agent.configFile
            let client = try BusTestClient(destination: Self.agentUniqueName())
            @MainActor func itemExists() -> Bool {
                !client.call(
                    "Get", Args.tuple([Args.s(Self.sni), Args.s("Status")]),
                    interface: "org.freedesktop.DBus.Properties", path: Self.item
                ).isError
            }
            XCTAssertFalse(itemExists())
            try "[agent]\ntray-item = on\n".write(to: file, atomically: true, encoding: .utf8)
            XCTAssertTrue(
                LoopWait.until(timeout: 15) { !watcher.registrations.isEmpty && itemExists() },
                "the item did not come:\n\(h.agent.log.suffix(2000))")
            try "[agent]\ntray-item = off\n".write(to: file, atomically: true, encoding: .utf8)
            XCTAssertTrue(LoopWait.until(timeout: 15) { !itemExists() }, "the item did not go")
            try "[agent]\ntray-item = on\n".write(to: file, atomically: true, encoding: .utf8)
            XCTAssertTrue(LoopWait.until(timeout: 15) { itemExists() }, "the item did not come back")
            XCTAssertTrue(h.agent.process.isRunning)
        }
    }

    /// Without a StatusNotifierWatcher no panel can show the item: its
    /// properties stay current but the per-second change signals are not sent;
    /// once a watcher comes they are.
    func testNoChangeSignalsWithoutAWatcher() throws {
        try MainActor.assumeIsolated {
            let h = try AgentHarness(config: "tray-item = on")
            defer { h.stop() }
            XCTAssertTrue(h.waitForConnection(), "agent never connected:\n\(h.agent.log)")
            let client = try BusTestClient(destination: Self.agentUniqueName())
            client.subscribe(interface: Self.sni, path: Self.item)
            h.session("ses_w", proxy: "+2348000000001", label: "Rider")
            h.send("call.incoming", "ses_w", ["proxyNumber": .string("+2348000000001")])
            h.send("call.answered", "ses_w")
            h.waitForNotify(timeout: 30) { $0.hints["category"] == "call" && ($0.timerSeconds ?? -1) >= 3 }
            XCTAssertEqual(Self.property(client, "Status"), "(<'Active'>,)", "the properties follow the call")
            XCTAssertTrue(client.signals.isEmpty, "signals with no watcher on the bus: \(client.signals)")

            let watcher = try WatcherStandIn()
            defer { watcher.stop() }
            XCTAssertTrue(
                LoopWait.until(timeout: 15) { !watcher.registrations.isEmpty },
                "the item registered with the new watcher:\n\(h.agent.log.suffix(2000))")
            XCTAssertTrue(
                LoopWait.until(timeout: 30) { client.signals.contains { $0.member == "NewToolTip" } },
                "the ticks signal once a watcher is there: \(client.signals)")
        }
    }

    /// The item says what the banner says, in the user's language (po/fr.po):
    /// the badge words are the banners', the label and the menu's actions its own.
    func testTheItemSpeaksTheUsersLanguage() throws {
        try withWatcherAndAgent(environment: ["LANG": "fr_FR.UTF-8", "LC_ALL": "fr_FR.UTF-8", "LANGUAGE": ""]) {
            watcher, h in
            // The menu follows the calls once a watcher is there.
            let client = try Self.registeredItem(h, watcher)
            h.session("ses_fr", proxy: "+2348000000001", label: "Livreur")
            h.send("call.incoming", "ses_fr", ["proxyNumber": .string("+2348000000001")])
            let banner = h.waitForNotify { $0.hints["category"] == "call.incoming" && $0.body.contains("Vérifié") }
            XCTAssertNotNil(banner, "the banner in French: \(h.mock.notifyCalls().map(\.body))")
            let tip = Self.waitFor(client, "ToolTip", "the badge in French", log: h.agent.log) {
                $0.contains("Vérifié")
            }
            XCTAssertFalse(tip.contains("Verified"), tip)
            XCTAssertEqual(Self.property(client, "XAyatanaLabel"), "(<'Sonnerie…'>,)")
            let menu = Args.printed(Self.menuLayout(client).value)
            XCTAssertTrue(menu.contains("'label': <'Vérifié'>") && menu.contains("'label': <'Fermer'>"), menu)
            XCTAssertFalse(menu.contains("Dismiss"), menu)
        }
    }

    /// "Copy number" hands the number to the session's clipboard tool (here a
    /// stand-in `wl-copy` that writes its stdin to a file).
    func testCopyNumberGoesToTheClipboardTool() throws {
        let bin = FileManager.default.temporaryDirectory.appendingPathComponent("tray-bin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: bin) }
        let copied = bin.appendingPathComponent("copied")
        let tool = bin.appendingPathComponent("wl-copy")
        try "#!/bin/sh\ncat > \"$TRAY_TEST_COPIED.tmp\" && mv \"$TRAY_TEST_COPIED.tmp\" \"$TRAY_TEST_COPIED\"\n"
            .write(to: tool, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tool.path)
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        try withWatcherAndAgent(environment: [
            "PATH": "\(bin.path):\(path)", "WAYLAND_DISPLAY": "wayland-tray-test", "TRAY_TEST_COPIED": copied.path,
        ]) { watcher, h in
            let client = try Self.registeredItem(h, watcher)
            h.session("ses_c", proxy: "+2348000000007", label: "Rider")
            h.send("call.incoming", "ses_c", ["proxyNumber": .string("+2348000000007")])
            Self.waitFor(client, "Status", "ringing", log: h.agent.log) { $0 == "(<'NeedsAttention'>,)" }
            Self.clickMenuItem(labelled: "Copy number", client)
            let text = Self.waitForContents(of: copied, "the tool got the number", log: h.agent.log)
            XCTAssertEqual(text, "+234 800 000 0007", "the number as shown, grouped")
        }
    }

    /// With `open-url` the item is not a menu: a left click (`Activate`) opens
    /// the call's page, metadata and all, with the session's handler for the
    /// scheme (the stand-in browser of `FakeURLHandler`).
    func testActivateOpensTheCallsPageWithOpenURL() throws {
        let handler = try FakeURLHandler()
        try withWatcherAndAgent(
            config: "open-url = http://127.0.0.1:9/calls/{sessionId}?who={metadata.label}",
            environment: handler.environment
        ) { watcher, h in
            let client = try Self.registeredItem(h, watcher)
            XCTAssertEqual(Self.property(client, "ItemIsMenu"), "(<false>,)", "a click opens the page, not the menu")
            h.session("ses_u", proxy: "+2348000000001", label: "Rider")
            h.send("call.incoming", "ses_u", ["proxyNumber": .string("+2348000000001")])
            Self.waitFor(client, "Status", "ringing", log: h.agent.log) { $0 == "(<'NeedsAttention'>,)" }
            // The label comes from the session's metadata: once shown, the agent has what the template names.
            Self.waitFor(client, "Title", "the label", log: h.agent.log) { $0 == "(<'Rider'>,)" }
            let activate = client.call(
                "Activate", Args.tuple([Args.i(10), Args.i(10)]), interface: Self.sni, path: Self.item)
            XCTAssertFalse(activate.isError, activate.errorMessage ?? "")
            let opened = handler.waitForOpened()
            XCTAssertEqual(
                opened?.first, "http://127.0.0.1:9/calls/ses_u?who=Rider",
                "expanded as a banner click is:\n\(h.agent.log.suffix(2000))")
        }
    }

    /// A client of the item, once the agent connected and registered it with the watcher.
    @MainActor
    static func registeredItem(
        _ h: AgentHarness, _ watcher: WatcherStandIn, file: StaticString = #filePath, line: UInt = #line
    ) throws -> BusTestClient {
        XCTAssertTrue(h.waitForConnection(), "agent never connected:\n\(h.agent.log)", file: file, line: line)
        XCTAssertTrue(
            LoopWait.until(timeout: 30) { !watcher.registrations.isEmpty },
            "the item never registered:\n\(h.agent.log.suffix(2000))", file: file, line: line)
        guard let registration = watcher.registrations.first else { throw NotRegistered() }
        return try BusTestClient(destination: registration.service)
    }

    struct NotRegistered: Error {}

    /// The seconds of an `XAyatanaNewLabel` body `('mm:ss', 'guide')`.
    static func labelSeconds(_ body: String) -> Int? {
        let parts = body.dropFirst(2).prefix(5).split(separator: ":")
        guard parts.count == 2, let minutes = Int(parts[0]), let seconds = Int(parts[1]) else { return nil }
        return minutes * 60 + seconds
    }

    /// What the stand-in clipboard tool wrote to `file`, once it did.
    @MainActor
    static func waitForContents(
        of file: URL, _ what: String, log: @autoclosure () -> String, file source: StaticString = #filePath,
        line: UInt = #line
    ) -> String {
        var text = ""
        let written = LoopWait.until(timeout: 30) {
            text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            return !text.isEmpty
        }
        XCTAssertTrue(written, "\(what):\n\(log().suffix(2000))", file: source, line: line)
        return text
    }

    func testPassiveWhileTheShellExtensionOwnsItsName() throws {
        try MainActor.assumeIsolated {
            let watcher = try WatcherStandIn()
            XCTAssertTrue(LoopWait.until(timeout: 10) { watcher.ownsName })
            var shell: BusTestClient? = try BusTestClient(destination: "org.freedesktop.DBus")
            let request = shell!.call(
                "RequestName", Args.tuple([Args.s(TrayItemController.shellIndicatorName), g_variant_new_uint32(4)]),
                interface: "org.freedesktop.DBus", path: "/org/freedesktop/DBus")
            XCTAssertEqual(Args.printed(request.value), "(1,)", "the stand-in extension owns its name")
            let h = try AgentHarness()
            defer {
                h.stop()
                watcher.stop()
            }
            let client = try Self.registeredItem(h, watcher)
            h.session("ses_g", proxy: "+2348000000001", label: "Rider")
            h.send("call.incoming", "ses_g", ["proxyNumber": .string("+2348000000001")])
            h.waitForNotify(timeout: 15) { $0.hints["category"]?.hasPrefix("call") == true }
            // The banner is up and the agent has heard of it; the item stays hidden.
            XCTAssertTrue(
                LoopWait.until(timeout: 10) { h.agent.log.contains("ShellIndicator owned by") },
                h.agent.log.suffix(2000).description)
            XCTAssertEqual(Self.property(client, "Status"), "(<'Passive'>,)")
            XCTAssertEqual(Self.property(client, "XAyatanaLabel"), "(<''>,)")
            // The extension goes away: the item shows the call.
            shell = nil
            Self.waitFor(client, "Status", "without the extension", log: h.agent.log) { $0 == "(<'NeedsAttention'>,)" }
            _ = shell
        }
    }
}

extension AgentTrayItemTests {
    /// The Plasma widget owns no bus name: it says `ShowingCalls(true)`, and the item hides
    /// until it says false, or until its connection leaves the bus.
    func testPassiveWhileAPanelWidgetSaysItShowsTheCalls() throws {
        try withWatcherAndAgent { watcher, h in
            let client = try Self.registeredItem(h, watcher)
            var widget: BusTestClient? = try BusTestClient(destination: AgentBus.name)
            let said = widget!.call("ShowingCalls", Args.tuple([Args.b(true)]))
            XCTAssertFalse(said.isError, said.errorMessage ?? "")
            h.session("ses_p", proxy: "+2348000000001", label: "Rider")
            h.send("call.incoming", "ses_p", ["proxyNumber": .string("+2348000000001")])
            h.waitForNotify(timeout: 15) { $0.hints["category"]?.hasPrefix("call") == true }
            XCTAssertTrue(
                LoopWait.until(timeout: 10) { h.agent.log.contains("shows the calls") },
                h.agent.log.suffix(2000).description)
            XCTAssertEqual(Self.property(client, "Status"), "(<'Passive'>,)")
            // It says false: the item shows the ringing call.
            XCTAssertFalse(widget!.call("ShowingCalls", Args.tuple([Args.b(false)])).isError)
            Self.waitFor(client, "Status", "after false", log: h.agent.log) { $0 == "(<'NeedsAttention'>,)" }
            // True again, then its connection goes (plasmashell quits): shown again.
            XCTAssertFalse(widget!.call("ShowingCalls", Args.tuple([Args.b(true)])).isError)
            Self.waitFor(client, "Status", "while shown again", log: h.agent.log) { $0 == "(<'Passive'>,)" }
            widget = nil
            Self.waitFor(client, "Status", "after the widget left", log: h.agent.log) { $0 == "(<'NeedsAttention'>,)" }
            _ = widget
        }
    }
}

/// Runs `body` with a StatusNotifierWatcher stand-in on the bus and a
/// connected agent; stops both afterwards.
private func withWatcherAndAgent(
    config: String = "", environment: [String: String] = [:],
    _ body: @MainActor (WatcherStandIn, AgentHarness) throws -> Void
) throws {
    try MainActor.assumeIsolated {
        let watcher = try WatcherStandIn()
        XCTAssertTrue(LoopWait.until(timeout: 10) { watcher.ownsName })
        let h = try AgentHarness(config: config, environment: environment)
        defer {
            h.stop()
            watcher.stop()
        }
        XCTAssertTrue(h.waitForConnection(), "agent never connected:\n\(h.agent.log)")
        try body(watcher, h)
    }
}
