@_exported import RelavoiCore
