module example.com/facts

go 1.26
