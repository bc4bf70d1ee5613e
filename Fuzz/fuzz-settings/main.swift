import RelavoiFuzzDriver

// libFuzzer target: agent.conf text through AgentSettings (docs/hardening.md).
FuzzDriver.main("fuzz-settings") { data, size in
    let problems = SettingsFuzzing.problems(UnsafeRawBufferPointer(fuzzData: data, size: size))
    if !problems.isEmpty { fatalError("fuzz-settings: " + problems.joined(separator: "; ")) }
    return 0
}
