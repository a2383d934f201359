module example.com/golangci

go 1.24
