import RelavoiCore

/// An `ask | on | off` setting: the person's answer to a `ConsentQuestion`.
protocol ConsentAnswer: RawRepresentable<String> {
    static var on: Self { get }
    static var off: Self { get }
}

extension TopBarAnswer: ConsentAnswer {}
extension PlasmaPanelAnswer: ConsentAnswer {}
