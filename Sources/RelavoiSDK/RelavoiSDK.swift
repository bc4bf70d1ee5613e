// As Apple's frameworks do: `Date`, `URL` and `.now + 5` with `import RelavoiSDK` alone.
@_exported import Foundation
@_exported import RelavoiCore

// The GLib main loop the SDK runs on: `MainLoop.run()`, or
// `MainLoop.installDispatchBridge()` before a host's own loop.
@_exported import enum RelavoiGLib.MainLoop
