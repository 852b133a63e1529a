module example.com/precision

go 1.26
