def greet(name):
    if name == None:
        return "Hello, stranger"
    return "Hello, " + name


print(greet("Ada"))
