package syntaxerror

func Broken( {
