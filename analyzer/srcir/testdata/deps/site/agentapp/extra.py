def describe(a):
    return str(a)
