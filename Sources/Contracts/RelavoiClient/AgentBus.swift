/// The names of the agent's D-Bus interface, for the agent and its clients. The contract
/// (methods, properties, signals, errors) is written down once, in docs/dbus.md;
/// `introspectionXML` is its machine form.
public enum AgentBus {
    public static let name = "com.relavoi.Agent"
    public static let objectPath = "/com/relavoi/Agent"
    public static let interface = "com.relavoi.Agent1"

    public static let errorInvalidArgument = "com.relavoi.Agent1.Error.InvalidArgument"
    public static let errorUnknownSession = "com.relavoi.Agent1.Error.UnknownSession"
    public static let errorFailed = "com.relavoi.Agent1.Error.Failed"

    /// The signature of `Diagnostics()`'s reply.
    public static let diagnosticsSignature = "(a{sx})"

    package static let introspectionXML = """
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
