"""Random dots for the GEMM emitter: SEED picks 40 dots of every operand type
(bf16, f16, f32 at default and HIGHEST precision, f64, s8, f8e4m3fn,
f8e5m2), batch, free and contracting dimensions in random positions and
numbers, and random layouts of operands and result, written as one module
(each dot a kernel) to standard output.

  random_dots.py SEED > dots.hlo
"""
import random
import sys
random.seed(int(sys.argv[1]))
types=[('bf16','f32'),('f16','f32'),('f32','f32'),('f64','f64'),('s8','s32'),('bf16','bf16'),('f8e4m3fn','f32'),('f8e5m2','bf16')]
lines=["HloModule rdots","","ENTRY %main {"]; outs=[]
for i in range(40):
    t,r=random.choice(types)
    if t=='f32' and random.random()<0.5: prec=", operand_precision={highest,highest}"
    else: prec=""
    nb=random.choice([0,0,1,2]); nf_l=random.choice([0,1,1,2]); nf_r=random.choice([1,1,2]); nc=random.choice([1,1,2])
    batch=[random.randint(1,3) for _ in range(nb)]
    lf=[random.randint(1,70) for _ in range(nf_l)]; rf=[random.randint(1,70) for _ in range(nf_r)]
    cs=[random.randint(1,80) for _ in range(nc)]
    def make(free):
        dims=[('b',j) for j in range(nb)]+[('f',j) for j in range(len(free))]+[('c',j) for j in range(nc)]
        random.shuffle(dims)
        sizes=[batch[j] if k=='b' else free[j] if k=='f' else cs[j] for k,j in dims]
        bd=[dims.index(('b',j)) for j in range(nb)]; cd=[dims.index(('c',j)) for j in range(nc)]
        freeSizes=[free[j] for k,j in dims if k=='f']
        layout=list(range(len(dims))); random.shuffle(layout)
        return sizes,bd,cd,layout,freeSizes
    ls,lb,lc,ll,lfo=make(lf); rs,rb,rc,rl,rfo=make(rf)
    res=batch+lfo+rfo
    fmt=lambda s,l: f"{t}[{','.join(map(str,s))}]{{{','.join(map(str,l))}}}"
    lines.append(f"  %l{i} = {fmt(ls,ll)} parameter({2*i})")
    lines.append(f"  %r{i} = {fmt(rs,rl)} parameter({2*i+1})")
    resl=list(range(len(res))); random.shuffle(resl)
    lines.append(f"  %d{i} = {r}[{','.join(map(str,res))}]{{{','.join(map(str,resl))}}} dot(%l{i}, %r{i}), lhs_batch_dims={{{','.join(map(str,lb))}}}, lhs_contracting_dims={{{','.join(map(str,lc))}}}, rhs_batch_dims={{{','.join(map(str,rb))}}}, rhs_contracting_dims={{{','.join(map(str,rc))}}}{prec}")
    outs.append((f"%d{i}", f"{r}[{','.join(map(str,res))}]"))
lines.append(f"  ROOT %t = ({', '.join(s for _,s in outs)}) tuple({', '.join(n for n,_ in outs)})")
lines.append("}")
print('\n'.join(lines))
