import WakeCore
import WakeSystem

/// The daemon's D-Bus API as data: its names, its interfaces' introspection (the text
/// `Resources/io.github.wakeclock.Wake1.xml` holds too: `BusAPITests` keeps the two equal, so
/// the installed description is the one served), and how a failure's kind becomes an error name.
public enum BusAPIDescription {
    /// Version 1 of the API: a change that breaks a client gets a new name (`Wake2`), served beside this.
    public static let busName = "io.github.wakeclock.Wake1"
    public static let root = "/io/github/wakeclock/Wake1"
    public static let manager = "io.github.wakeclock.Wake1.Manager"
    public static let alarm = "io.github.wakeclock.Wake1.Alarm"
    public static let version: UInt32 = 1

    /// The object of the alarm called `name`: a standing alarm's under `alarm/`, a one-off's
    /// (`pid:4242`) under `oneoff/` by its PID.
    public static func path(of name: String) -> String {
        if let pid = oneOffPID(name) { return root + "/oneoff/\(pid)" }
        return root + "/alarm/" + BusObjects.pathElement(name)
    }

    /// The name of the one-off alarm that the wake with `pid` rings (`wake 07:00` in a terminal):
    /// `pid:4242`, which no standing alarm's name can be (a colon is never in one).
    public static func oneOffName(pid: Int32) -> String { OneOffName.of(pid: pid) }

    /// The PID a one-off's name holds; nil for any other name.
    public static func oneOffPID(_ name: String) -> Int32? { OneOffName.pid(in: name) }

    /// The error an edit of a one-off is refused with: it owns itself, the daemon keeps no file of it.
    public static let readOnly = "\(busName).Error.ReadOnly"

    /// The D-Bus error a failure of `kind` is answered with: a meaning, as the command line's
    /// exit code is one; the message is the line the command line prints.
    public static func errorName(_ kind: WakeFailure.Kind) -> String {
        let meaning: String
        switch kind {
        case .usage: meaning = "InvalidArgument"
        case .soundUnusable: meaning = "SoundUnusable"
        case .unavailable: meaning = "Unavailable"
        case .resource: meaning = "Resource"
        case .cantCreate: meaning = "CannotWrite"
        case .permission: meaning = "Permission"
        case .config: meaning = "BrokenFile"
        case .nothingMatched: meaning = "NothingMatched"
        case .noSound: meaning = "NoSound"
        case .interrupted: meaning = "Interrupted"
        }
        return "\(busName).Error.\(meaning)"
    }

    static func reply(_ failure: WakeFailure) -> BusReply { .error(name: errorName(failure.kind), message: failure.message) }

    static let managerXML = """
      <method name="Add">
       <arg name="when" type="s" direction="in"/>
       <arg name="options" type="a{sv}" direction="in"/>
       <arg name="alarm" type="o" direction="out"/>
      </method>
      <method name="AddTimer">
       <arg name="span" type="s" direction="in"/>
       <arg name="name" type="s" direction="in"/>
       <arg name="options" type="a{sv}" direction="in"/>
       <arg name="alarm" type="o" direction="out"/>
      </method>
      <method name="Remove">
       <arg name="name" type="s" direction="in"/>
      </method>
      <method name="Skip">
       <arg name="name" type="s" direction="in"/>
       <arg name="options" type="a{sv}" direction="in"/>
      </method>
      <method name="Pause">
       <arg name="name" type="s" direction="in"/>
       <arg name="options" type="a{sv}" direction="in"/>
      </method>
      <method name="Resume">
       <arg name="name" type="s" direction="in"/>
       <arg name="options" type="a{sv}" direction="in"/>
      </method>
      <method name="Snooze">
       <arg name="name" type="s" direction="in"/>
       <arg name="options" type="a{sv}" direction="in"/>
      </method>
      <method name="Stop">
       <arg name="name" type="s" direction="in"/>
      </method>
      <method name="ListAlarms">
       <arg name="alarms" type="ao" direction="out"/>
      </method>
      <property name="Version" type="u" access="read">
       <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="const"/>
      </property>
      <property name="NextAlarmTime" type="t" access="read"/>
      <property name="NextAlarmId" type="s" access="read"/>
      <property name="NextAlarmMessage" type="s" access="read"/>
      <signal name="Ringing">
       <arg name="alarm" type="o"/>
       <arg name="name" type="s"/>
      </signal>
      <signal name="Snoozed">
       <arg name="alarm" type="o"/>
       <arg name="name" type="s"/>
       <arg name="until" type="t"/>
      </signal>
      <signal name="Stopped">
       <arg name="alarm" type="o"/>
       <arg name="name" type="s"/>
       <arg name="by" type="s"/>
      </signal>
      <signal name="Missed">
       <arg name="alarm" type="o"/>
       <arg name="name" type="s"/>
       <arg name="occurrence" type="t"/>
      </signal>
    """

    static let alarmXML = """
      <method name="Snooze">
       <arg name="options" type="a{sv}" direction="in"/>
      </method>
      <method name="Stop"/>
      <method name="Skip"/>
      <method name="Update">
       <arg name="options" type="a{sv}" direction="in"/>
      </method>
      <property name="Name" type="s" access="read"/>
      <property name="Time" type="s" access="read"/>
      <property name="Days" type="s" access="read"/>
      <property name="Date" type="s" access="read"/>
      <property name="Message" type="s" access="read"/>
      <property name="NextRing" type="t" access="read"/>
      <property name="State" type="s" access="read"/>
      <property name="Skipped" type="at" access="read"/>
      <property name="Enabled" type="b" access="readwrite"/>
      <property name="Round" type="u" access="read"/>
      <property name="TimerSpan" type="t" access="read"/>
      <property name="TimerHeld" type="t" access="read"/>
      <property name="Rounds" type="u" access="read"/>
      <property name="Kind" type="s" access="read">
       <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="const"/>
      </property>
      <property name="ReadOnly" type="b" access="read">
       <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="const"/>
      </property>
      <property name="Pid" type="u" access="read">
       <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="const"/>
      </property>
    """

    /// The installed interface file's text: both interfaces, as Introspect serves them.
    public static var document: String {
        """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        <!-- wake's D-Bus API, version 1 (see wake(1), D-BUS INTERFACE). Times are microseconds
             since the Unix epoch (UTC), 0 for none. An alarm's object is alarm/NAME for a
             standing alarm, oneoff/PID for a one-off a terminal runs (wake 07:00), named
             pid:PID, Kind one-off, ReadOnly: Stop and Snooze reach it, edits are refused
             (Error.ReadOnly). Generated from
             Sources/WakeRuntime/BusAPI/BusAPIDescription.swift; a test keeps them equal. -->
        <node>
         <interface name="\(manager)">
        \(managerXML)
         </interface>
         <interface name="\(alarm)">
        \(alarmXML)
         </interface>
        </node>

        """
    }
}
