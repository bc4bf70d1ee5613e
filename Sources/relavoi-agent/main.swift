import RelavoiGLib
import RelavoiSDK

print("relavoi-agent")
