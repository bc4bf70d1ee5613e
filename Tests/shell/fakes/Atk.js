// A stand-in for Atk: the roles the extension gives its actors.
export default {Role: {NOTIFICATION: 'notification'}};
