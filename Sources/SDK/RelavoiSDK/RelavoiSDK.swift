// As Apple's frameworks do: `Date`, `URL` and `.now + 5` with `import RelavoiSDK` alone
// (FoundationEssentials: no ICU in the processes that link the SDK).
@_exported import FoundationEssentials
// The public API is the iOS SDK's plus the Linux additions (RelavoiConfig,
// AppIdentity, MainLoop, errors). The engines below it (RelavoiCore, RelavoiStream,
// RelavoiBanners) are the agent's too; only the types named here are the SDK's.
import RelavoiCore

@_exported import struct RelavoiCore.AppIdentity
@_exported import enum RelavoiCore.DismissPolicy
@_exported import enum RelavoiCore.JSONValue
@_exported import struct RelavoiCore.RelavoiCallAttributes
@_exported import enum RelavoiCore.RelavoiEvent
// The GLib main loop the SDK runs on: `MainLoop.run()`, or
// `MainLoop.installDispatchBridge()` before a host's own loop.
@_exported import enum RelavoiGLib.MainLoop
@_exported import struct RelavoiStream.RelavoiConfig
@_exported import enum RelavoiStream.RelavoiError
