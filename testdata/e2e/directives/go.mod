module example.com/directives

go 1.24
