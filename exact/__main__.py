from exact.cli import main

main()
