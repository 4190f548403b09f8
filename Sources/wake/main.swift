print("wake")
