module example.com/app

go 1.24

require example.com/helpers v0.0.0

replace example.com/helpers => ../helpers
