module example.com/gclfixture

go 1.26
