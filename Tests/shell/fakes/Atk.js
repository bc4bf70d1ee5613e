// A stand-in for Atk: the roles and relations the extension gives its actors.
export default {Role: {NOTIFICATION: 'notification'}, RelationType: {LABEL_FOR: 'label-for'}};
