import RelavoiFuzzDriver

// libFuzzer target: the argument checks of com.relavoi.Agent1 (docs/hardening.md).
FuzzDriver.main("fuzz-dbus") { data, size in
    let problems = ControlArgumentsFuzzing.problems(UnsafeRawBufferPointer(fuzzData: data, size: size))
    if !problems.isEmpty { fatalError("fuzz-dbus: " + problems.joined(separator: "; ")) }
    return 0
}
