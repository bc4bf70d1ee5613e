import RelavoiFuzzDriver

// libFuzzer target: the tray menu's event check (docs/hardening.md).
FuzzDriver.main("fuzz-tray-menu") { data, size in
    let problems = TrayMenuFuzzing.problems(UnsafeRawBufferPointer(fuzzData: data, size: size))
    if !problems.isEmpty { fatalError("fuzz-tray-menu: " + problems.joined(separator: "; ")) }
    return 0
}
