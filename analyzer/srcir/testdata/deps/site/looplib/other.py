def unrelated():
    return 1
