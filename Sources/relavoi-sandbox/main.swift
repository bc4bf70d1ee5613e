import RelavoiSandboxKit
print("relavoi-sandbox")
