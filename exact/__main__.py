from exact.cli import main

if __name__ == "__main__":  # worker processes (Dask, multiprocessing spawn) import this module too
    main()
