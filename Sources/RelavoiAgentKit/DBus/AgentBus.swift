/// Names and shape of the agent's D-Bus control interface.
///
///     bus name   com.relavoi.Agent          (one agent per session)
///     object     /com/relavoi/Agent
///     interface  com.relavoi.Agent1
///
///     Start(s session_id, s proxy_number, s other_party_label, b verified)
///     Update(s session_id, i elapsed_seconds, b verified, s other_party_label)
///     End(s session_id, s policy, x after_unix_seconds)
///         policy "immediate" | "default" | "after"; after_unix_seconds is
///         the close time for "after" and must be 0 otherwise
///     List() -> a(sssbis) banners
///         (session_id, proxy_number, other_party_label, verified,
///          elapsed_seconds, phase "ringing" | "active" | "ended" | "missed")
///     Dismiss(s session_id)
///         closes the call's banner as the user would from the tray: the call
///         is no longer shown (BannerDismissed follows)
///     Open(s session_id)
///         opens the call's page (the `open-url` setting) with the desktop's
///         default handler, as a click on its banner does; Failed when
///         open-url is not set or names metadata the session lacks
///     Diagnostics() -> a{sx} figures
///         memory, threads, fds, GLib sources, what the agent tracks
///     ShowingCalls(b shown)
///         a panel that draws the calls and owns no bus name (the KDE Plasma
///         widget com.relavoi.call) says it shows them, or no longer does; the
///         agent holds a true until the caller says false or leaves the bus.
///         Meanwhile the tray item stays Passive (tray-item = auto), as while
///         the GNOME extension owns com.relavoi.Agent.ShellIndicator
///     property Connected b (read)   PropertiesChanged when it changes
///     property Calls aa{sv} (read)  PropertiesChanged when a call changes,
///         never for a tick; one dictionary a ringing, live or just-ended
///         call, oldest first:
///           session-id s, label s, proxy-number s (as the banner shows them),
///           badge s ("checking" | "verified" | "unverified" | "unavailable"),
///           badge-text s, phase s ("ringing" | "live" | "ended" | "missed"),
///           rang-at x, answered-at x, ended-at x (unix milliseconds, 0 when
///           not known or not yet: a panel counts its timer from answered-at),
///           duration x (final seconds once ended, else 0),
///           can-open b (Open would open a page: show an "Open" item)
///     property Health a{sv} (read)  PropertiesChanged when it changes: why
///         calls cannot show, as the notices and `ctl status` tell it:
///           state s ("connected" | "reconnecting" | "offline" | "refused" |
///           "not-set-up"; reconnecting is a blip, not news: show nothing),
///           since x (unix milliseconds, 0 when none)
///     signal BannerDismissed(s session_id)   the user closed the banner
///
/// Errors: `com.relavoi.Agent1.Error.InvalidArgument`,
/// `com.relavoi.Agent1.Error.UnknownSession`, `com.relavoi.Agent1.Error.Failed`;
/// a call with the wrong signature gets GDBus's
/// `org.freedesktop.DBus.Error.InvalidArgs`.
public enum AgentBus {
    public static let name = "com.relavoi.Agent"
    public static let objectPath = "/com/relavoi/Agent"
    public static let interface = "com.relavoi.Agent1"

    public static let errorInvalidArgument = "com.relavoi.Agent1.Error.InvalidArgument"
    public static let errorUnknownSession = "com.relavoi.Agent1.Error.UnknownSession"
    public static let errorFailed = "com.relavoi.Agent1.Error.Failed"

    /// The signature of `Diagnostics()`'s reply.
    public static let diagnosticsSignature = "(a{sx})"

    /// The signature of `List()`'s reply.
    public static let listSignature = "(a(sssbis))"

    static let introspectionXML = """
        <node>
          <interface name="com.relavoi.Agent1">
            <method name="Start">
              <arg name="session_id" type="s" direction="in"/>
              <arg name="proxy_number" type="s" direction="in"/>
              <arg name="other_party_label" type="s" direction="in"/>
              <arg name="verified" type="b" direction="in"/>
            </method>
            <method name="Update">
              <arg name="session_id" type="s" direction="in"/>
              <arg name="elapsed_seconds" type="i" direction="in"/>
              <arg name="verified" type="b" direction="in"/>
              <arg name="other_party_label" type="s" direction="in"/>
            </method>
            <method name="End">
              <arg name="session_id" type="s" direction="in"/>
              <arg name="policy" type="s" direction="in"/>
              <arg name="after_unix_seconds" type="x" direction="in"/>
            </method>
            <method name="Dismiss">
              <arg name="session_id" type="s" direction="in"/>
            </method>
            <method name="Open">
              <arg name="session_id" type="s" direction="in"/>
            </method>
            <method name="List">
              <arg name="banners" type="a(sssbis)" direction="out"/>
            </method>
            <method name="Diagnostics">
              <arg name="figures" type="a{sx}" direction="out"/>
            </method>
            <method name="ShowingCalls">
              <arg name="shown" type="b" direction="in"/>
            </method>
            <property name="Connected" type="b" access="read"/>
            <property name="Calls" type="aa{sv}" access="read"/>
            <property name="Health" type="a{sv}" access="read"/>
            <signal name="BannerDismissed">
              <arg name="session_id" type="s"/>
            </signal>
          </interface>
        </node>
        """
}
