module example.com/partload

go 1.24
