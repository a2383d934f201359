module example.com/suppress

go 1.24
