#!/usr/bin/python3
"""Exports two small transformers from plain PyTorch the way users export them, for the importer
tests (tests/core/importers/test_importers_onnx_torch.cpp).

Regenerate (Debian's interpreter, which has python3-torch 1.13 and python3-onnx 1.12; not a
pyenv python3):

    cd tests/data/importers/onnx && /usr/bin/python3 export_torch_models.py

Writes torch_gpt.onnx, torch_bert.onnx and torch_gpt_tied.onnx next to this script and prints each model's parameter
count (sum of p.numel()) next to the hand formula the tests use. The exports go through
torch.onnx.export with opset 14, symbolic `batch` and `sequence` axes and the default
do_constant_folding=True, so the Reshape targets inside attention are computed at run time from
Shape → Gather → Unsqueeze → Concat as in any real export. Weights are random (fixed seed); the
files differ between runs only if torch's exporter changes.

  gpt:  token + position embeddings, L pre-LN blocks of causal self-attention (c_attn, view,
        transpose, q·kᵀ, causal mask from a bool buffer as Hugging Face GPT-2 keeps it, softmax,
        ·v, c_proj) and a 4x MLP with GELU, a final LayerNorm and an untied LM head.
        parameters = V·d + C·d + L·(12·d² + 13·d) + 2·d + V·d
  gpt_tied: the same GPT with the LM head tied to the token embedding, as GPT-2 has it; the
        exporter stores the shared weight twice (wte.weight for the Gather, a transposed
        constant-folded copy for the head's MatMul), and the importer must count it once.
        parameters = V·d + C·d + L·(12·d² + 13·d) + 2·d
  bert: word + position + token-type embeddings and a LayerNorm, L post-LN encoder blocks with an
        additive attention mask from the `attention_mask` input, 4x GELU FFN, and a tanh pooler
        over the first token.
        parameters = (V + C + 2)·d + 2·d + L·(12·d² + 13·d) + d² + d
"""
import math
import os

import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))

# Shared small dimensions: vocabulary, context, width, heads, blocks.
V, C, D, HEADS, L = 256, 64, 64, 4, 2
OPSET = 14


class CausalSelfAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.c_attn = nn.Linear(D, 3 * D)
        self.c_proj = nn.Linear(D, D)
        self.n_head = HEADS
        mask = torch.tril(torch.ones(C, C, dtype=torch.bool)).view(1, 1, C, C)
        self.register_buffer("bias", mask, persistent=False)

    def forward(self, x):
        B, T, Cw = x.size()
        q, k, v = self.c_attn(x).split(Cw, dim=2)
        k = k.view(B, T, self.n_head, Cw // self.n_head).transpose(1, 2)
        q = q.view(B, T, self.n_head, Cw // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, Cw // self.n_head).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        y = att @ v
        y = y.transpose(1, 2).contiguous().view(B, T, Cw)
        return self.c_proj(y)


class GptMlp(nn.Module):
    def __init__(self):
        super().__init__()
        self.c_fc = nn.Linear(D, 4 * D)
        self.act = nn.GELU()
        self.c_proj = nn.Linear(4 * D, D)

    def forward(self, x):
        return self.c_proj(self.act(self.c_fc(x)))


class GptBlock(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln_1 = nn.LayerNorm(D)
        self.attn = CausalSelfAttention()
        self.ln_2 = nn.LayerNorm(D)
        self.mlp = GptMlp()

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class Gpt(nn.Module):
    def __init__(self):
        super().__init__()
        self.wte = nn.Embedding(V, D)
        self.wpe = nn.Embedding(C, D)
        self.h = nn.ModuleList([GptBlock() for _ in range(L)])
        self.ln_f = nn.LayerNorm(D)
        self.lm_head = nn.Linear(D, V, bias=False)

    def forward(self, input_ids):
        b, t = input_ids.size()
        pos = torch.arange(0, t, dtype=torch.long, device=input_ids.device).unsqueeze(0)
        x = self.wte(input_ids) + self.wpe(pos)
        for block in self.h:
            x = block(x)
        return self.lm_head(self.ln_f(x))


class BertSelfAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.query = nn.Linear(D, D)
        self.key = nn.Linear(D, D)
        self.value = nn.Linear(D, D)
        self.heads = HEADS
        self.head_size = D // HEADS

    def split(self, x):
        shape = x.size()[:-1] + (self.heads, self.head_size)
        return x.view(shape).permute(0, 2, 1, 3)

    def forward(self, x, mask):
        q, k, v = self.split(self.query(x)), self.split(self.key(x)), self.split(self.value(x))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head_size)
        probs = F.softmax(scores + mask, dim=-1)
        context = torch.matmul(probs, v).permute(0, 2, 1, 3).contiguous()
        return context.view(context.size()[:-2] + (D,))


class BertLayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.attention = BertSelfAttention()
        self.attention_output = nn.Linear(D, D)
        self.attention_norm = nn.LayerNorm(D)
        self.intermediate = nn.Linear(D, 4 * D)
        self.output = nn.Linear(4 * D, D)
        self.output_norm = nn.LayerNorm(D)

    def forward(self, x, mask):
        x = self.attention_norm(x + self.attention_output(self.attention(x, mask)))
        return self.output_norm(x + self.output(F.gelu(self.intermediate(x))))


class Bert(nn.Module):
    def __init__(self):
        super().__init__()
        self.word_embeddings = nn.Embedding(V, D)
        self.position_embeddings = nn.Embedding(C, D)
        self.token_type_embeddings = nn.Embedding(2, D)
        self.embeddings_norm = nn.LayerNorm(D)
        self.register_buffer("position_ids", torch.arange(C).expand((1, -1)), persistent=False)
        self.layer = nn.ModuleList([BertLayer() for _ in range(L)])
        self.pooler = nn.Linear(D, D)

    def forward(self, input_ids, attention_mask, token_type_ids):
        seq = input_ids.size(1)
        positions = self.position_ids[:, :seq]
        x = (self.word_embeddings(input_ids) + self.position_embeddings(positions) +
             self.token_type_embeddings(token_type_ids))
        x = self.embeddings_norm(x)
        mask = attention_mask[:, None, None, :].to(x.dtype)
        mask = (1.0 - mask) * torch.finfo(x.dtype).min
        for block in self.layer:
            x = block(x, mask)
        pooled = torch.tanh(self.pooler(x[:, 0]))
        return x, pooled


def randomize(model):
    # A trained model never has two equal weight tensors, but fresh LayerNorms do (all ones, all
    # zeros), and torch.onnx.export stores equal initializers once. Random values keep every
    # parameter its own initializer, as in a real checkpoint.
    with torch.no_grad():
        for p in model.parameters():
            p.normal_(0.0, 0.02)
    return model


def parameters(model):
    return sum(p.numel() for p in model.parameters())


def export(model, name, args, input_names, output_names, axes):
    path = os.path.join(HERE, name)
    torch.onnx.export(model, args, path, opset_version=OPSET, input_names=input_names,
                      output_names=output_names, dynamic_axes=axes)
    print(f"{name}: {parameters(model)} parameters, {os.path.getsize(path)} bytes")


def main():
    torch.manual_seed(12)
    tokens = {0: "batch", 1: "sequence"}

    gpt = randomize(Gpt()).eval()
    formula = V * D + C * D + L * (12 * D * D + 13 * D) + 2 * D + V * D
    assert parameters(gpt) == formula, (parameters(gpt), formula)
    ids = torch.randint(0, V, (2, 8))
    export(gpt, "torch_gpt.onnx", (ids,), ["input_ids"], ["logits"],
           {"input_ids": tokens, "logits": tokens})

    bert = randomize(Bert()).eval()
    formula = (V + C + 2) * D + 2 * D + L * (12 * D * D + 13 * D) + D * D + D
    assert parameters(bert) == formula, (parameters(bert), formula)
    mask = torch.ones(2, 8, dtype=torch.long)
    types = torch.zeros(2, 8, dtype=torch.long)
    export(bert, "torch_bert.onnx", (ids, mask, types),
           ["input_ids", "attention_mask", "token_type_ids"], ["last_hidden_state", "pooler_output"],
           {"input_ids": tokens, "attention_mask": tokens, "token_type_ids": tokens,
            "last_hidden_state": tokens, "pooler_output": {0: "batch"}})

    tied = randomize(Gpt()).eval()
    tied.lm_head.weight = tied.wte.weight
    formula = V * D + C * D + L * (12 * D * D + 13 * D) + 2 * D
    assert parameters(tied) == formula, (parameters(tied), formula)
    export(tied, "torch_gpt_tied.onnx", (ids,), ["input_ids"], ["logits"],
           {"input_ids": tokens, "logits": tokens})


if __name__ == "__main__":
    main()
