// RelavoiSDK exports only its public API now; files here that name
// RelavoiCore's types with `import RelavoiSDK` alone still see them.
@_exported import RelavoiCore
