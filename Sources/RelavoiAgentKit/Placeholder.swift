// The session agent.
