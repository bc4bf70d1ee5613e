import FoundationEssentials

/// `pause-media = ringing | answered | off`: when the media players on the desktop (MPRIS)
/// are paused for a call the person is shown. `ringing` from the call's first ring (or its
/// answer, when no ring was seen), `answered` from its answer only (a missed call leaves the
/// music alone), `off` never. They play again when the last such call ends.
public enum MediaPauseMode: String, Equatable, Sendable, CaseIterable {
    case ringing, answered, off
}
