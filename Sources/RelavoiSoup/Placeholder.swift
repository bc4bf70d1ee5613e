// Adapter over libsoup-3: HTTP and WebSocket client.
