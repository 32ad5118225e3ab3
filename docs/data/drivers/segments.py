"""Wire bytes, input bytes and blocks per rung for each kind of the link benchmark's changing
data (4 MiB stretches of JSON, random data, text and PDF, repeating every 16 MiB), then the mean
frame length and median codec time per kind and rung, from a BlockTrace output file:

    python3 docs/data/drivers/segments.py TRACE.txt
"""
import re,sys,collections
pos=0; tot=collections.Counter(); cnt=collections.defaultdict(collections.Counter); inb=collections.Counter()
kinds=['json','random','text','pdf']
for line in open(sys.argv[1]):
    m=re.match(r'\s*(\d+) t=\s*([\d.]+)ms r(\d)->(\d) c=\s*(\d+)us out=\s*(\d+)',line)
    if not m: continue
    r=int(m.group(3)); out=int(m.group(6))
    n=131052 if r==0 else 131072
    k=kinds[(pos % (16<<20))//(4<<20)]
    tot[k]+=out+20; cnt[k][r]+=1; inb[k]+=n
    pos+=n
for k in kinds: print(k, '%.1f MB'%(tot[k]/1e6), 'in %.1f'%(inb[k]/1e6), 'ratio %.2f'%(inb[k]/tot[k]), dict(sorted(cnt[k].items())))
print('total %.1f'%(sum(tot.values())/1e6))
pos=0; outs=collections.defaultdict(list)
for line in open(sys.argv[1]):
    m=re.match(r'\s*(\d+) t=\s*([\d.]+)ms r(\d)->(\d) c=\s*(\d+)us out=\s*(\d+)',line)
    if not m: continue
    r=int(m.group(3)); out=int(m.group(6)); c=int(m.group(5))
    n=131052 if r==0 else 131072
    k=kinds[(pos % (16<<20))//(4<<20)]
    outs[(k,r)].append((out,c)); pos+=n
for key in sorted(outs):
    v=outs[key]; print(key, len(v), 'out %.0f'%(sum(x[0] for x in v)/len(v)), 'c %.0f'%(sorted(x[1] for x in v)[len(v)//2]))
