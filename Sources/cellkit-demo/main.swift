print("cellkit-demo")
