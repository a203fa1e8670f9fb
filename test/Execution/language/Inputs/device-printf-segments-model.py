# What Inputs/device-printf-segments.bsgp prints, in superstep order: 80
# threads, 3 rounds of the loop, then the branch (taken: 3 > 2).
n, rounds = 80, 3
print("host before")
print("first piece")
for k in range(rounds):
    print("require %d" % k)
    for r in range(n):
        print("t %d %d" % (k, r))
print("require in the branch")
for r in range(n):
    print("u %d" % r)
print("last piece")
print("host after")
