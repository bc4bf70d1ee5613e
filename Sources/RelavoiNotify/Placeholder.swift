// Adapter over libnotify: the banner presenter.
