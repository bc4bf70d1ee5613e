import RelavoiAgentKit

print("relavoi-agent")
