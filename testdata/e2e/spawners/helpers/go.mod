module example.com/helpers

go 1.24
