import RelavoiCore
import Testing

@Suite struct CurrentDesktopTests {
    private func desktop(_ value: String?) -> CurrentDesktop {
        CurrentDesktop(environment: value.map { ["XDG_CURRENT_DESKTOP": $0] } ?? [:])
    }

    @Test func knowsGNOMEShellDesktops() {
        #expect(desktop("GNOME").isGNOME)
        #expect(desktop("ubuntu:GNOME").isGNOME)
        #expect(desktop("GNOME-Classic:GNOME").isGNOME)
        #expect(desktop("gnome").isGNOME)
        #expect(!desktop("GNOME").isKDE)
    }

    @Test func budgieAndFlashbackHaveNoGNOMEShell() {
        #expect(!desktop("Budgie:GNOME").isGNOME)
        #expect(!desktop("GNOME-Flashback:GNOME").isGNOME)
    }

    @Test func knowsAKDESession() {
        #expect(desktop("KDE").isKDE)
        #expect(!desktop("KDE").isGNOME)
        #expect(!desktop("ubuntu:GNOME").isKDE)
    }

    @Test func otherOrUnknownIsNeither() {
        for value in ["X-Cinnamon", "sway", "XFCE", "", nil] {
            #expect(!desktop(value).isGNOME && !desktop(value).isKDE)
        }
    }
}
