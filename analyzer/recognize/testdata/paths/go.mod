module example.com/paths

go 1.26
