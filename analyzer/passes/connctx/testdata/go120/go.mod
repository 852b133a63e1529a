module example.com/go120

go 1.20
