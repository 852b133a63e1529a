module example.com/goshapes

go 1.26
