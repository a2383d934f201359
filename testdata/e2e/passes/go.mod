module example.com/passes

go 1.24
