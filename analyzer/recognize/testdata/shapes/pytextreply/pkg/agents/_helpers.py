def summarize(results):
    return "\n".join(str(r) for r in results)


def format_calls(calls):
    return [c.name for c in calls]
