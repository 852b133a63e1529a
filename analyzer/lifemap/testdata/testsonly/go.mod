module example.com/testsonly

go 1.26
